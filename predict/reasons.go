package predict

// Reasons. What an answer says about how it was reached is data until the
// cascade ends: a step that proves gives its note, and the product
// search's unknown keeps its own reason apart from what the two-thread
// searches concluded, which is worded once, at the end (unknownAnswer).

// The reasons the cascade gives when a step before the product search
// answered.
const (
	prefilterNote = "no violation even when locks, fork and join are ignored, so none with them"
	// forkPrefilterNote: forkscan.go.
	forkPrefilterNote = "no violation even when locks and joins are ignored (forks kept, and with --lock-edges their conflicts), so none with them"
	normalRunNote     = "the violating run was found ignoring locks, fork and join, and it obeys them too"
	locksProtectNote  = "every transaction keeps its cross-thread accesses in one critical section of a lock that guards them"
)

// orderingsLockEdgesNote is the unknown of a trace with read locks or
// messages (docs/spec.md §3) that a step found serializable with the
// orderings dropped, which with lock edges proves nothing.
const orderingsLockEdgesNote = "no violation was found, but the trace orders its threads with read locks, messages or tokens " +
	"(docs/spec.md §3), whose conflicts under --lock-edges predict's searches do not see, so that proves nothing"

// pairsProvedNote is the reason of a serializable answer that the pairs'
// products give on their own: at most two threads have events that can
// conflict across threads, so every cycle is a two-thread cycle.
const pairsProvedNote = "each pair of threads was checked on its own, and no third thread can take part in a cycle (docs/predict.md)"

// twoThreadsNote starts the reason of an unknown after every pair was
// proved free of two-thread cycles (internal/products).
const twoThreadsNote = "no violation involving two threads (every pair of threads decided on its own, docs/predict.md); " +
	"cycles through three or more threads were not decided: "

// oneVariableNote is what the linear two-thread decision proves when it
// finds no pattern (internal/nested).
const oneVariableNote = "no cycle through two threads is on one variable (the linear decision under nested locking)"

// productAnswer is the product search's answer; for an unknown, its
// reason is its own, and pairs says that what the two-thread searches
// concluded follows it (a deadline or the memory budget says nothing of
// them).
type productAnswer struct {
	out   *Outcome
	pairs bool
}

// unknownAnswer words the product search's unknown: after the pairs'
// products proved every two-thread cycle absent, that comes first;
// otherwise what the two-thread searches concluded follows.
func (c *cascade) unknownAnswer() *Outcome {
	out := c.unknown.out
	switch {
	case c.twoThreads:
		out.Result.Reason = twoThreadsNote + out.Result.Reason
	case c.unknown.pairs:
		out.Result.Reason += c.pairsNote()
	}
	return out
}

// pairsNote says, in an unknown's reason, that the two-thread searches ran
// and found nothing, which proves nothing (docs/predict.md).
func (c *cascade) pairsNote() string {
	switch {
	case !c.pairsTried:
		return ""
	case c.nested.notNested != "":
		return "; the two-thread searches found no violation, which is no proof that there is none, and the linear " +
			"decision does not apply: the locking is not nested (" + c.nested.notNested + "; docs/predict.md)"
	case c.nested.proved && !c.p.o.Check.LockEdges:
		return "; " + oneVariableNote + "; the other two-thread searches found no violation, which is no proof that there is none (docs/predict.md)"
	}
	return "; the two-thread searches found no violation, which is no proof that there is none (docs/predict.md)"
}
