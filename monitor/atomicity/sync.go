package atomicity

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// other steps the events that are not accesses: begin and end open and
// close the thread's transaction; the rest order events with lock edges
// only (lockEdge).
func (k *Tracker) other(th *thread, ev *trace.Event) {
	switch ev.Op {
	case model.OpBegin:
		if th.depth++; th.depth == 1 {
			k.open(th, ev)
		}
	case model.OpEnd:
		if th.depth > 0 {
			if th.depth--; th.depth == 0 {
				k.close(th, ev.Line)
			}
		}
	default:
		if k.opts.LockEdges {
			k.lockEdge(th, ev)
		}
	}
}

// lockEdge steps a lock, fork, join or ordering event with lock edges: an
// acquire comes after the lock's last release (and its read releases
// since: ordering), a join after the joined thread's latest event; a
// release and a fork are sources for later events.
func (k *Tracker) lockEdge(th *thread, ev *trace.Event) {
	t := ev.Thread
	switch ev.Op {
	case model.OpAcquire:
		if l := k.lock(ev.Target); l.line != 0 && l.thread != t && l.m.news(th, k.busy.lo) {
			k.receive(th, ev, l, model.OpRelease, ev.Target)
		}
		if int(ev.Target) < len(k.readRels) {
			k.receiveAll(th, ev, &k.readRels[ev.Target], model.OpReadRelease)
			k.readRels[ev.Target].clear()
		}
	case model.OpRelease:
		*k.lock(ev.Target) = rec{ev.Line, th.m.frozen(), t, ev.Loc}
	case model.OpFork:
		if u := &k.threads[ev.Target]; ev.Target != t {
			u.pending = append(u.pending, fork{*ev, th.m.frozen()})
		}
	case model.OpJoin:
		if u := &k.threads[ev.Target]; u.last.Line != 0 && ev.Target != t {
			k.receiveEvent(th, ev, &u.last, u.m)
		}
	default:
		k.ordering(th, ev)
	}
}

// forked orders th's first event ev after the forks of th (lock edges).
func (k *Tracker) forked(th *thread, ev *trace.Event) {
	for i := range th.pending {
		p := &th.pending[i]
		k.receiveEvent(th, ev, &p.ev, p.m)
	}
	th.pending = th.pending[:0]
}

// open starts th's transaction at its begin ev, in a free slot.
func (k *Tracker) open(th *thread, ev *trace.Event) {
	x := k.newTxn()
	x.thread, x.begin = ev.Thread, *ev
	if n := len(k.free); n > 0 {
		x.slot = k.free[n-1]
		k.free = k.free[:n-1]
	} else {
		x.slot = int32(len(k.slots))
		k.slots, k.opened = append(k.slots, nil), append(k.opened, 0)
	}
	k.slots[x.slot], k.opened[x.slot] = x, ev.Line
	k.busy.add(x.slot)
	// A thread's mask grows to its slot's word: with a million
	// transactions open at once, that is half a million words a thread.
	words := th.m.words()
	th.m.add(x.slot)
	k.work += int64(64 * (th.m.words() - words))
	th.tx = x
	th.own = 0
	if x.slot < 64 {
		th.own = 1 << x.slot
	}
}

// close ends th's transaction at line end, handing it over if broken, and
// clears its slot in the threads that knew of it.
func (k *Tracker) close(th *thread, end int64) {
	x := th.tx
	th.tx, th.own = nil, 0
	th.m.remove(x.slot)
	for _, l := range x.known {
		k.threads[l.thread].m.remove(x.slot)
	}
	k.known -= len(x.known)
	if x.overflow {
		k.work += int64(len(k.threads))
		for i := range k.threads { // some learned of x unrecorded
			k.threads[i].m.remove(x.slot)
		}
	}
	k.busy.remove(x.slot)
	k.slots[x.slot] = nil
	k.free = append(k.free, x.slot)
	if x.broken != nil {
		x.broken.End = end
		k.emit(x.broken)
	}
	x.broken, x.known, x.overflow = nil, x.known[:0], false
	if cap(x.known) > 64 {
		x.known = nil // a spare keeps no long list
	}
	k.spare = append(k.spare, x)
}

func (k *Tracker) newTxn() *txn {
	if n := len(k.spare); n > 0 {
		x := k.spare[n-1]
		k.spare = k.spare[:n-1]
		return x
	}
	return &txn{}
}

// ordering steps the extension's events with lock edges (docs/spec.md
// §3): a read acquire comes after its lock's last release, as an acquire
// does; a read release is kept, one per thread, until the lock's next
// acquire, which comes after each; a wait comes after each post of its
// message, kept one per thread (a thread's earlier posts precede its
// latest); a take after the give it takes, the oldest not yet taken.
func (k *Tracker) ordering(th *thread, ev *trace.Event) {
	here := rec{ev.Line, th.m.frozen(), ev.Thread, ev.Loc}
	switch ev.Op {
	case model.OpReadAcquire:
		if l := k.lock(ev.Target); l.line != 0 && l.thread != ev.Thread && l.m.news(th, k.busy.lo) {
			k.receive(th, ev, l, model.OpRelease, ev.Target)
		}
	case model.OpReadRelease:
		k.readRels = growRecords(k.readRels, ev.Target)
		k.readRels[ev.Target].read(here)
	case model.OpPost:
		k.posts = growRecords(k.posts, ev.Target)
		k.posts[ev.Target].read(here)
	case model.OpWait:
		if int(ev.Target) < len(k.posts) {
			k.receiveAll(th, ev, &k.posts[ev.Target], model.OpPost)
		}
	case model.OpGive:
		for int(ev.Target) >= len(k.tokens) {
			k.tokens = append(k.tokens, nil)
		}
		k.tokens[ev.Target] = append(k.tokens[ev.Target], here)
	case model.OpTake:
		k.take(th, ev)
	}
}

// take orders a take after the give it takes: the oldest not yet taken.
func (k *Tracker) take(th *thread, ev *trace.Event) {
	if int(ev.Target) >= len(k.tokens) || len(k.tokens[ev.Target]) == 0 {
		return // the reader refuses a take of no token
	}
	q := k.tokens[ev.Target]
	g := q[0]
	if k.tokens[ev.Target] = q[1:]; len(q) == 1 {
		k.tokens[ev.Target] = q[:0]
	}
	if g.thread != ev.Thread && g.m.news(th, k.busy.lo) {
		k.receive(th, ev, &g, model.OpGive, ev.Target)
	}
}

// receiveAll orders ev after each record of v's reads (events op of v's
// target, another thread's).
func (k *Tracker) receiveAll(th *thread, ev *trace.Event, v *variable, op model.Op) {
	for i := range v.reads {
		if r := &v.reads[i]; r.thread != ev.Thread && r.m.news(th, k.busy.lo) {
			k.receive(th, ev, r, op, ev.Target)
		}
	}
}

// clear forgets v's reads.
func (v *variable) clear() { v.reads, v.at = v.reads[:0], nil }

// growRecords makes records[i] exist.
func growRecords(records []variable, i int32) []variable {
	for int(i) >= len(records) {
		records = append(records, variable{})
	}
	return records
}
