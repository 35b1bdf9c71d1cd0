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
// calls it, and so does conc serve), predict's runPrediction.
//
// Decisions where the spec is silent:
//   - flags may come before, between or after the arguments; "--" ends them;
//     "-" as the file reads standard input (named <stdin> in positions);
//   - --engine auto is the registry's choice (engines.Auto, from what each
//     engine declares): among profile, global, brute, the first that
//     accepts the program and decides it, else the first that accepts it
//     (profile refuses locks, fork and join); the engine field of the
//     output names it;
//   - --quiet leaves out only the text summary line; JSON is unchanged;
//   - --dot always writes a valid graph: the cycle for a violation, else an
//     empty graph labelled with the verdict; --html always a whole page
//     (package report/html), the witness or the groups drawn when there
//     are any;
//   - output files (--dot, --html, --witness-out, bench's --plot) never destroy data
//     (package internal/outfile): one that is an input of the run (also
//     through a symbolic or hard link, or standard input redirected from
//     it) is refused with exit 2; each is written to a temporary file
//     beside it, opened after the input and before the work (a bad path
//     fails at once), and renamed over its name at the end, so an error
//     leaves any earlier file of that name as it was;
//   - "-" as --dot, --html or --witness-out is standard output; the report
//     (text or JSON) then goes to standard error, so that "--dot - | dot
//     -Tsvg" gets the graph alone; two of them as "-", or two naming one
//     file (compared as absolute paths, and by inode when both exist), is
//     a usage error;
//   - an engine that fails (an error that is not the deadline, or a panic) is
//     exit 2 with "conc: engine NAME failed: ..."; an engine that overruns
//     --timeout (or the memory budget) by more than a second is abandoned
//     with verdict unknown (an engine that did not finish is never
//     reported serializable);
//   - --timeout wants a positive duration with a unit: "5" is refused with
//     the hint "a duration needs a unit, e.g. 5s or 2m", and 0 like -1s
//     (leaving the flag out: five minutes for check, predict and profiles,
//     none for monitor); one longer than 100 years
//     (up to Go's 2562047h47m16s) is clamped to 100 years, practically none;
//   - a bad flag value is reported alone, as --flag "value": why, exit 2;
//   - --ignore-sync puts its optimism note in "reason" (and a "note:" line);
//   - --version prints "conc VERSION (commit REV[, modified]; GO)" from Go's
//     build info: the module version (a tag or Go's pseudo-version), else
//     "devel"; the commit is "unknown" without VCS information (go run,
//     -buildvcs=false, or a git worktree, which Go does not stamp).
package main
