// Package graph decides serializability of runs: the exact conflict graph
// (Lemma 1: a schedule is atomic iff its conflict graph is acyclic), kept
// incrementally as a run grows one event at a time.
//
// A Graph has one node per transaction of the run and an edge t1 -> t2 when an
// event of t1 comes before a conflicting event of t2 (the paper's relation D,
// docs/spec.md §1): two events of one thread, or two accesses of one variable of
// which one is a write; with lock edges also a release of l before a later
// acquire of l, a fork of U before every event of U, and every event of U
// before a join of U. Transactions are delimited by begin and end (nested
// pairs flatten to the outermost); an access outside any transaction is a
// unary transaction, as are lock, fork and join events outside one when lock
// edges are on. Without lock edges, lock, fork and join events make no
// conflict and belong to no transaction.
//
// Graph.Step adds the edges a new event causes and reports the cycle that
// event closes, as a list of real conflicting event pairs (indices into the
// run). Edges only ever enter the transaction of the new event, so the graph
// was acyclic before a step iff every cycle after it uses one of the step's
// new edges; a depth-first search from the stepping transaction finds it.
//
// Garbage collection (Velodrome's): a completed transaction with no incoming
// edge is dropped. It can never be on a cycle: an edge into a transaction is
// created only by one of that transaction's own events (its events come later
// than the conflicting ones), and a completed transaction has no later
// events. Dropping it only removes edges out of it; those can lie on no
// cycle, and the nodes they entered may in turn become completed sources.
// The surviving graph therefore has a cycle in the future exactly when the
// full graph would.
//
// Graphs are small values that Clone cheaply and encode canonically
// (AppendKey), which is what the brute-force engine memoises on.
package graph
