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
// (but for the broken transactions it keeps): vector clocks over threads
// whose own entry is a version that moves only when the thread's clock
// changes (a transaction begins, or an edge brings news), so that a clock
// is copied once per version, not per event, and a join whose source the
// receiver already knows is skipped after one comparison. Each open
// transaction remembers, per other thread, the edge by which that thread
// first learned of it; the explanation of a broken transaction follows
// these edges back from the event that interrupts it to the event of its
// own where the path leaves it (docs/monitor.md, "Broken transactions").
package atomicity
