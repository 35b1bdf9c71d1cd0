// Command conc decides whether a concurrent program can violate atomicity
// (conflict-serializability), after Farzan and Madhusudan, "The Complexity of
// Predicting Atomicity Violations" (2009), and shows how: a verdict, a witness
// run and the cycle of conflicts that makes it non-serializable.
//
// Usage:
//
//	conc check   FILE.conc   [flags]   is any run of the program non-serializable?
//	conc predict TRACE       [flags]   is any reordering of the trace non-serializable?
//	conc monitor TRACE       [flags]   is the observed trace itself non-serializable?
//	conc merge SUMMARY...    [flags]   one report from runs over many traces
//	conc profiles FILE.conc  [flags]   the profiles of each thread (Definition 4)
//	conc gen FAMILY [params]           write a generated program
//	conc bench [params]                measure how the engines scale
//	conc serve [flags]                 the playground in a browser (package serve)
//
// Exit codes: 0 serializable, 1 violation, 2 bad input or usage, 3 unknown.
// The command stays thin: it parses flags, loads the input, picks an engine
// from the engines registry, renders the answer with package report and maps
// the verdict to an exit code. Each subcommand is one file that registers
// itself in the command table (commands.go); the commands that decide
// (check, predict) share decideFlags (flags.go), the limits they run under
// (check.Deadline: engines.Within and engines.Settle; profiles too) and the
// rendering (decide.go); check's pipeline is package check (decide.go
// calls it, and so does conc serve), predict's runPrediction. Over
// several traces monitor and predict --all hand them to package corpus
// (corpus.go), and merge reads its summaries (merge.go).
//
// docs/spec.md is the contract: the flag syntax, output files and
// budgets (§4, §7), the engine auto picks and the other decisions (§8).
package main
