// Package pair is conc predict's two-thread patterns (docs/predict.md,
// "Two threads"): a transaction of one thread interrupted by another
// thread's accesses, found in one or two streaming passes over the
// projection's spool with vector clocks, and its run planned as a
// proj.Plan for predict to materialise and verify.
//
// Two patterns: the happens-before one (hb.go: FindHB, or HBScan step by
// step), whose run is the observed order cut to what happens before the
// pattern; and the lock-aware one (lock.go: IndexLocked, then FindLocked
// over its Index, or Indexer and Meeter step by step), whose run is a
// context C (context.go: FreeContext; proj's PrefixSegments) and four
// segments of the two threads. plan.go turns either into a plan (PlanHB,
// PlanLocked) and words its reason (HBWhy, LockedWhy). Walk, the
// lock-aware passes' walk, is hb.Walk with the threads' lock states.
//
// A pattern is only a candidate: its run may still be refused by the
// verification, and then it is no answer. The package knows no other
// finder; predict decides when the passes run (and passes in what they
// need: the summary, the spool, a stop function, and for PlanHB the
// observed witness's cut), and what their answers mean.
package pair
