// Package profiles computes each thread's profiles (Farzan and Madhusudan,
// Definition 4): the accesses a thread can make, taken one or two at a time,
// with whether two of them lie in the same transaction.
//
// A profile of a local schedule σ_T is one of
//
//	▷ a ◁          a occurs in σ_T                      (Single)
//	▷ a b ◁        a before b, in one transaction        (Same)
//	▷ a ◁ ▷ b ◁    a before b, in different transactions (Diff)
//
// where a and b are letters: a variable with read or write (Letter). Lemma 3
// says that these short words, one per thread, carry everything that decides
// whether a program without locks has a non-serializable run, so a thread of
// any length is summarised by O(v²) bits.
//
// Extract computes the profiles of a finite automaton in one forward dataflow
// pass (linear in its size for a straight-line thread; a fixpoint over loops
// otherwise); ProfileAutomaton turns them back into the paper's profile
// automaton P_i. Write renders
// them for `conc profiles`. Pushdown threads get the saturation of Lemma 4
// (pda.go; docs/pda.md has the argument)
// and PushdownPath, Path's counterpart for witnesses.
package profiles
