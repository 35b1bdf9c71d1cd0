// Package dfa holds the input of the paper's W[1]-hardness reduction
// (Section 4.1, Theorem 6): finite-state automata intersection. An instance
// is k deterministic automata over a common alphabet and a length m; the
// question is whether some word of length at least m is accepted by all k.
//
// The package reads and writes instances in a small text format (Parse),
// draws random ones (Random) and answers the question directly by a search
// of the product automaton (CommonWord), the check that conc gen w1's
// programs are tested against.
package dfa
