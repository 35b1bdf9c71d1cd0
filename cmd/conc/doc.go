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
//	conc profiles FILE.conc            the profiles of each thread (Definition 4)
//	conc gen FAMILY [params]           write a generated program
//	conc bench [params]                measure how the engines scale
//
// Exit codes: 0 serializable, 1 violation, 2 bad input or usage, 3 unknown.
// The command stays thin: it parses flags, loads the input, picks an engine
// from the engines registry, renders the answer with package report and maps
// the verdict to an exit code. Each subcommand is one file that registers
// itself in the command table (commands.go).
package main
