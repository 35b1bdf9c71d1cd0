// Package corpus checks many traces as one (docs/corpus.md): conc monitor
// or conc predict --all over files and directories of traces
// (Inputs), each trace checked on its own by a pool of workers (Run,
// CheckTrace), its answer cut down to a Summary: its verdict, and its
// groups by code-location signature with object ids normalised away
// (Normalise), each with a count and one example. Summaries merge
// (Merger, Merge): associatively, commutatively and deterministically,
// the example kept being the one of the least (trace, line), so that a
// corpus split any way, its parts checked anywhere (conc merge, the Beam
// pipeline of beam/) and merged in any order gives the report one run
// gives. report/merged renders it.
//
// Memory: a worker holds one trace's check (what conc monitor or conc
// predict --all holds for it), and the merged summary one row per trace
// and one example per group; nothing grows with the traces' events.
package corpus
