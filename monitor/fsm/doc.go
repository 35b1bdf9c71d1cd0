// Package fsm is the finite-state serializability monitor of Farzan and
// Madhusudan (CAV 2008) that Theorem 4's product runs alongside the
// threads: a state of letter sets and reachability rows per thread whose
// size depends only on the program's threads, variables and locks, not on
// the run (docs/monitor.md has the construction and its argument).
package fsm
