// Package verify checks witnesses of atomicity violations independently of
// the engines that produce them (STYLE.md rule 6: it shares no code with
// package monitor or the engines). A witness claims that a run of the program
// has a cycle in its conflict graph, so by Lemma 1 of Farzan and Madhusudan
// the run is not serializable. Witness checks both halves of that claim from
// the data alone:
//
//   - the run is a run of the program in the documented form: every
//     thread's path replays in its automaton from Init with the empty stack
//     and emits exactly that thread's events of the run, in order (with lock
//     edges a lock, fork or join move outside a transaction emits its unary
//     transaction begin, event, end, and no such event may stand bare); locks are held by one thread at a
//     time and released only by their holder; no event of a forked thread
//     comes before its fork, and a join comes after every event of the joined
//     thread, which has then finished (a terminal state, empty stack);
//   - the cycle is a cycle of the run's conflict graph: the transactions and
//     the conflict relation D (docs/spec.md §1, with lock edges when the witness says
//     so) are recomputed from the run, and every pair of the cycle is checked
//     against them.
//
// Prefix is Witness for a run its caller read off straight-line threads (a
// trace's projections): the replay would only repeat how the run was made,
// so it needs the names and, per thread, who forks it and whether its path
// runs to the end, instead of automata of tens of bytes an edge.
package verify
