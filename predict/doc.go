// Package predict decides whether a trace can be reordered into a run that
// is not conflict-serializable (`conc predict`, docs/spec.md §3): the trace's
// per-thread projections form a straight-line program (Farzan and
// Madhusudan's prediction model), and the question is whether that program
// violates atomicity.
//
// Without locks, fork and join (or with them ignored, the paper's first
// model) the answer is Lemma 3's: some thread has a profile ▷ a b ◁ and a
// chain of other, distinct threads leads from a back to b. For a
// straight-line thread the profiles a chain needs collapse to two numbers per
// letter, the first and last transactions that use it (first(e1) <= last(e2)
// is exactly "▷ e1 ◁, ▷ e1 e2 ◁, ▷ e2 e1 ◁ or ▷ e1 ◁ ▷ e2 ◁"), so the check
// streams: a first pass over the trace keeps those numbers per thread and
// letter and spools the events compactly (to memory, then to a temporary
// file); a second pass over the spool looks for the interrupted transaction.
// Memory is O(threads × variables), never O(events). Only letters that
// conflict with another thread's are looked at. The chain search behind that
// pass is exponential in the threads (Theorem 2), so it looks at short chains
// first (internal/chain/deepen.go): chains of one or two threads in time
// linear in the letters involved (internal/chain/chain_short.go), then longer
// ones under a state budget.
//
// With locks, fork or join the projection program goes to the lock-aware
// engine (Theorem 4, package engines' "global"), after an exact reduction
// (private accesses, private locks and transactions left without cross-thread
// conflicts are dropped). Before that product search, four cheaper answers
// are tried: no violation without synchronisation means none with it
// (without lock edges); the normal run found without synchronisation may
// respect it; transactions that keep their shared accesses in one critical
// section of a lock every conflicting access takes cannot be interrupted
// (internal/proj/locksets.go: a proof of serializable); and the observed order, a
// reordering like any other, may itself not be serializable
// (internal/observed: its witness trimmed to what happens before the cycle). Three more: the lock-free
// check with fork order kept (internal/forkorder: a chain uses no thread forked
// after its b, and no event that must precede the interrupted thread's
// start; a proof of serializable, with lock edges too), and two
// linear-time searches for a two-thread violation, one through the locks
// (internal/pair/lock.go: another thread's access scheduled between two accesses of
// a transaction from lock-free points) and one over the observed order
// closed under happens-before (internal/pair/hb.go). Every witness, the
// shortcuts' and the engines', is checked by package verify before it is
// answered (internal/proj/gate.go; verify.Prefix: the run is read off the projection, so
// what is checked is lock validity, fork and join order and the cycle).
// Without --max-states
// or --timeout the product search gets a default size guard and state
// budget, and the lock-free chain search a state budget of its own, so
// that predict always ends (unknown, exit 3, with the reason).
//
// Every witness is a run of the projection program (model.Witness), written
// into its slots by one more pass over the spool, with nothing else kept per
// event (about 49 bytes an event: its model.Step; the paths share one array
// of moves); WriteSTD writes it as a trace whose LOC fields are the original
// lines.
package predict
