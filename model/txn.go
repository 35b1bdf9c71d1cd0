package model

// TxnCounter assigns a run's events their transactions (docs/spec.md §1) one at a
// time: a begin opens one and its thread's events up to the matching end
// belong to it, nested pairs flattening to the outermost; an access outside
// any transaction is a unary transaction of its own. A lock, fork or join
// event outside a transaction is a unary transaction only with lock edges,
// which make such events conflict; otherwise it is in none, being on no
// cycle, and so is an end with no transaction open. Transactions are
// numbered from 0 in the order they begin, and each has its ordinal among
// its thread's transactions, from 1.
type TxnCounter struct {
	lockEdges bool
	open      []int // per thread: its open transaction
	nth       []int // per thread: that transaction's ordinal
	depth     []int // per thread: begin nesting
	count     []int // per thread: its transactions so far
	next      int
}

// NewTxnCounter counts for a run whose events' threads are below threads.
func NewTxnCounter(lockEdges bool, threads int) *TxnCounter {
	return &TxnCounter{lockEdges: lockEdges, open: make([]int, threads), nth: make([]int, threads),
		depth: make([]int, threads), count: make([]int, threads)}
}

// Step is the transaction of the run's next event s (-1 for none), its
// ordinal (0 for none), and whether s began it.
func (c *TxnCounter) Step(s Step) (txn, nth int, fresh bool) {
	t, op := s.Thread, s.Ev.Op
	switch {
	case op == OpBegin:
		if c.depth[t]++; c.depth[t] > 1 {
			return c.open[t], c.nth[t], false
		}
		c.open[t], c.nth[t] = c.fresh(t)
		return c.open[t], c.nth[t], true
	case c.depth[t] > 0:
		if op == OpEnd {
			c.depth[t]--
		}
		return c.open[t], c.nth[t], false
	case op.IsAccess(), op.IsSync() && c.lockEdges:
		txn, nth := c.fresh(t)
		return txn, nth, true
	}
	return -1, 0, false // an end with none open, or a sync event without lock edges
}

func (c *TxnCounter) fresh(t int32) (int, int) {
	c.count[t]++
	c.next++
	return c.next - 1, c.count[t]
}
