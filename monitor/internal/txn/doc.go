// Package txn holds the nodes and records of the trace monitor's conflict
// graph (package monitor): a transaction (Txn) with its edges, the arena
// that recycles transactions, and a variable's record of its last write
// and the reads since. They are data with the operations that touch one
// node or one record only; everything that walks the graph is the
// monitor's. The layouts are part of the monitor's speed: a Txn is three
// cache lines, a Var one (see their comments).
package txn
