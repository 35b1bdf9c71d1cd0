package verify

import "github.com/conc-dev/conc/model"

// scan is the one pass over the run that checks it event by event: each
// event names a thread and target of the program (event), with lock edges
// no lock, fork or join event stands outside a transaction (unarySync),
// locks are valid and threads move only between their fork and their join
// (sync.go); it also counts each thread's events, lists the joins and finds
// the transactions of the cycle's events (txn.go). A witness can have
// millions of events and every pass reads all of them from memory (about
// 6 ms a million, measured), and conc predict replays every witness it
// answers with, so there is one pass, not one a check. Most events are
// accesses, begins and ends of threads free to move, which the order checks
// pass over without a call.
func (c *checker) scan() error {
	o, tx := newSyncState(c), newTxns(c)
	c.events = make([]int, len(c.p.Threads))
	run, held := c.w.Run, o.held
	for i := range run {
		s := &run[i]
		if err := c.event(i, s); err != nil {
			return err
		}
		c.events[s.Thread]++
		if c.w.LockEdges {
			if err := c.unarySync(i, s, tx.depth); err != nil {
				return err
			}
		}
		tx.step(i, s)
		if !s.Ev.Op.IsSync() && !held[s.Thread] {
			continue
		}
		if err := o.order(i, s); err != nil {
			return err
		}
	}
	c.txn = tx.txn
	return nil
}

// order runs the lock and the fork and join checks at run event i, s.
func (o *syncState) order(i int, s *model.Step) error {
	if err := o.lock(i); err != nil {
		return err
	}
	return o.forkJoin(i)
}
