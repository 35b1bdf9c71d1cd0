package verify

import "github.com/conc-dev/conc/model"

// scan is the one pass over the run that checks it event by event: each
// event names a thread and target of the program (event), with lock edges
// no lock, fork or join event stands outside a transaction (unarySync),
// locks are valid and threads move only between their fork and their join
// (sync.go); it also counts each thread's events and the sync events, lists
// the joins and finds the transactions of the cycle's events (txn.go). A
// witness can have millions of events and conc predict replays every
// witness it answers with, so these checks share one pass, not one a
// check, and the common event costs a few instructions: an access or a
// begin or end of a thread free to move, not on the cycle, is checked in
// the loop; every other event is visited. (The run is walked again only by
// Witness's replay, once per thread, and by Prefix under lock edges when
// the run has sync events: unaryWrappers.)
func (c *checker) scan() error {
	o, tx := newSyncState(c), newTxns(c)
	c.events = make([]int, len(c.p.Threads))
	events, held := c.events, o.held
	threads, vars := uint32(len(c.p.Threads)), uint32(len(c.p.Vars))
	run := c.w.Run
	for i := range run {
		s := &run[i]
		if t, op := uint32(s.Thread), s.Ev.Op; t < threads && !held[t] && i != tx.next {
			switch {
			case op.IsAccess() && uint32(s.Ev.Target) < vars:
				events[t]++
				continue
			case op == model.OpBegin || op == model.OpEnd:
				events[t]++
				tx.nest(s.Thread, op)
				continue
			}
		}
		if err := c.visit(i, s, o, tx); err != nil {
			return err
		}
	}
	c.txn = tx.txn
	return nil
}

// visit makes every check of the scan at run event i, s.
func (c *checker) visit(i int, s *model.Step, o *syncState, tx *txns) error {
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
	if s.Ev.Op.IsSync() {
		c.syncs++
	} else if !o.held[s.Thread] {
		return nil
	}
	if err := o.lock(i); err != nil {
		return err
	}
	switch s.Ev.Op {
	case model.OpPost, model.OpWait:
		if err := o.message(i, c.posts); err != nil {
			return err
		}
	case model.OpGive, model.OpTake:
		if err := o.token(i); err != nil {
			return err
		}
	}
	return o.forkJoin(i)
}
