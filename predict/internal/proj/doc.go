// Package proj is the projection layer of conc predict (docs/predict.md):
// the trace streamed once into a spool that later passes read again
// (Spool, SpoolReader), the per-thread summaries of that first pass
// (Summary, ThreadSum), the straight-line projection program and its
// reduction to the relevant variables and locks (AutoBuilder, Program,
// Reduced, Users), the lock sets behind the critical-section proof
// (LockSet, ProtectedByLocks), and a witness as a Plan materialised over
// the projection and checked by package verify before predict answers with
// it (Materialised, Replays, WitnessError).
//
// Every finder of package predict builds on it; it knows none of them. It
// is internal to predict: it imports model, profiles, trace and verify, and
// nothing of predict.
package proj
