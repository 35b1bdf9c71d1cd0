// Package view decides whether an observed trace is view-serializable
// (Wang and Stoller 2006, Section 2; docs/traces.md, "View
// serializability"): whether some serial order of its transactions reads
// every value from the same write as the trace does (or the initial value)
// and leaves every variable with the same final write.
//
// Transactions are docs/spec.md §1's: a thread's outermost begin..end
// block, or an access outside any block (a unary transaction). A serial
// order keeps each thread's transactions in program order. What else
// constrains it follows the conflict criterion: without LockEdges nothing
// else (locks, fork and join make no conflict, so they order no serial
// order either); with LockEdges also a lock passing from release to
// acquire, fork, join and docs/spec.md §3's orderings, as the conflict
// relation has them. So every conflict-serializable trace is
// view-serializable in either mode, as the theory has it.
//
// Testing view-serializability is NP-complete (Papadimitriou 1979). Check
// streams the trace once into Papadimitriou's polygraph (the
// transactions, their reads-from arcs, and a choice for every other
// writer of a variable read: before the read's writer or after the
// reader), and decides it in stages: the obstacles a single transaction
// shows, the conflict graph (acyclic: serializable, its topological order
// the witness), the polygraph's arcs alone (a cycle: a violation), the
// one-variable case in polynomial time, and last a budgeted search over
// the choices (Options.MaxStates, the context's deadline) that ends in
// Unknown when the budget runs out.
package view
