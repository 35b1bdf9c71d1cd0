// Package atomicity decides, for every transaction of an observed trace,
// whether that transaction is atomic by itself (docs/spec.md §1, "broken
// transactions"; RegionTrack's Theorem 2): a transaction tx of thread t is
// broken iff some event e of another thread has tx.begin → e → e' for an
// event e' of tx, where → is the transitive order made of program order and
// cross-thread conflicts in trace order (with lock edges also release →
// later acquire, fork → the child's first event and the child's last event
// → join). Equivalently, tx alone cannot be made contiguous while every
// other transaction is split into single events.
//
// The Tracker reads the trace once, in memory independent of its length
// (but for the broken transactions it keeps). Only open transactions can
// still be broken, so each open one has a slot, and every thread and every
// record of an event (a variable's last write and reads, a lock's last
// release, a fork) carries the mask of slots whose transaction's begin
// comes before it: a join of masks along each edge, one word while at most
// 64 transactions are open at once. A slot is reused once its transaction
// ends; a mask's slot counts only if that slot's transaction began no
// later than the event that holds the mask. Each open transaction also
// remembers, per other thread, the edge by which that thread first learned
// of it; the explanation of a broken transaction follows these edges back
// from the event that interrupts it to the event of its own where the path
// leaves it (docs/traces.md, "Broken transactions").
package atomicity
