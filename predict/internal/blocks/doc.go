// Package blocks is conc predict --criterion view (docs/predict.md, "View
// serializability of two transactions"): Wang and Stoller's block-based
// algorithm (2006, Section 6.1 and 6.2) for the question whether some
// reordering of the trace makes two transactions of different threads
// non-view-serializable, each pair taken alone.
//
// One pass over the spool (Collect) makes each transaction's content:
// its accesses of variables another thread also touches, with the locks
// held at each and the thread's fork and join epoch, and its critical
// sections. Equal contents of a thread are kept once (the paper's sharing
// of blocks). The block test (Filter) compares the contents of every two
// threads: a pair of blocks, two events of one transaction and one or two
// of the other, that synchronisation lets interleave in an unserializable
// pattern is a candidate (an Instance), given as two orders, X's event
// before Y's and Y's event before X's, which are also a conflict cycle.
// The test is a necessary condition; each candidate is then searched for a
// run in the grid of its two threads' positions (Search), which predict
// turns into a witness and verifies. No candidate proves the pair
// criterion for every reordering; a candidate with a run is a violation.
//
// It imports nothing of predict but the projection layer and the
// happens-before clocks.
package blocks
