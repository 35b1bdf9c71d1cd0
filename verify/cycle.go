package verify

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// conflict is the relation D of docs/spec.md §1 for run events i < j: the same
// thread; or the same variable with a write; or, with lock edges, a release
// before an acquire of the same lock, a fork of U before an event of U, or an
// event of U before a join of U; and docs/spec.md §3's orderings but for
// tokens, whose give that a take follows depends on the run's order (a
// cycle through one is refused: predict's searches make none).
func conflict(run []model.Step, i, j int, lockEdges bool) bool {
	a, b := run[i], run[j]
	if a.Thread == b.Thread {
		return true
	}
	if a.Ev.Op.IsAccess() && b.Ev.Op.IsAccess() {
		return a.Ev.Target == b.Ev.Target && (a.Ev.Op == model.OpWrite || b.Ev.Op == model.OpWrite)
	}
	if !lockEdges {
		return false
	}
	switch {
	case a.Ev.Op == model.OpRelease && (b.Ev.Op == model.OpAcquire || b.Ev.Op == model.OpReadAcquire),
		a.Ev.Op == model.OpReadRelease && b.Ev.Op == model.OpAcquire,
		a.Ev.Op == model.OpPost && b.Ev.Op == model.OpWait:
		return a.Ev.Target == b.Ev.Target
	case a.Ev.Op == model.OpFork && a.Ev.Target == b.Thread:
		return true
	}
	return b.Ev.Op == model.OpJoin && b.Ev.Target == a.Thread
}

// cycle checks w.Cycle against the transactions the scan recomputed, and
// the conflicts:
// every pair is two conflicting events of different transactions, the
// earlier first; each pair's second event shares a transaction with the
// next pair's first, and the last pair returns to the first's transaction.
func (c *checker) cycle() error {
	cyc, run := c.w.Cycle, c.w.Run
	if len(cyc) == 0 {
		return fmt.Errorf("the witness has no cycle")
	}
	for k, pr := range cyc {
		if pr.From < 0 || pr.To < 0 || pr.From >= len(run) || pr.To >= len(run) {
			return fmt.Errorf("cycle pair %d (%d -> %d): index out of the run (length %d)", k, pr.From, pr.To, len(run))
		}
	}
	txn := c.txn // the scan found them
	for k, pr := range cyc {
		if err := c.pair(k, pr, txn); err != nil {
			return err
		}
	}
	for k, pr := range cyc {
		next := cyc[(k+1)%len(cyc)]
		if txn[pr.To] != txn[next.From] {
			what := fmt.Sprintf("cycle pairs %d and %d do not chain", k, k+1)
			if k == len(cyc)-1 {
				what = "the cycle does not close"
			}
			return fmt.Errorf("%s: %s and %s are in different transactions", what, c.describe(pr.To), c.describe(next.From))
		}
	}
	return nil
}

// pair checks one cycle pair.
func (c *checker) pair(k int, pr model.Conflict, txn map[int]txnID) error {
	where := fmt.Sprintf("cycle pair %d (%d -> %d)", k, pr.From, pr.To)
	switch {
	case pr.From >= pr.To:
		return fmt.Errorf("%s: %s does not come before %s", where, c.describe(pr.From), c.describe(pr.To))
	case txn[pr.From] == noTxn:
		return fmt.Errorf("%s: %s belongs to no transaction", where, c.describe(pr.From))
	case txn[pr.To] == noTxn:
		return fmt.Errorf("%s: %s belongs to no transaction", where, c.describe(pr.To))
	case txn[pr.From] == txn[pr.To]:
		return fmt.Errorf("%s: %s and %s are in the same transaction", where, c.describe(pr.From), c.describe(pr.To))
	case !conflict(c.w.Run, pr.From, pr.To, c.w.LockEdges):
		return fmt.Errorf("%s: %s and %s do not conflict", where, c.describe(pr.From), c.describe(pr.To))
	}
	return nil
}
