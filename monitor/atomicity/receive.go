package atomicity

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// ownHigh tells whether th's transaction, still to be checked, has a slot
// past the first word (own cannot hold it).
func (th *thread) ownHigh() bool { return th.tx != nil && th.tx.slot >= 64 && th.tx.broken == nil }

// receive orders ev, of th, after the record r of another thread's event
// (its op and target those of r's record): rec.news said it may matter.
func (k *Tracker) receive(th *thread, ev *trace.Event, r *rec, op model.Op, target int32) {
	from := trace.Event{Thread: r.thread, Op: op, Target: target, Loc: r.loc, Line: r.line}
	k.receiveEvent(th, ev, &from, r.m)
}

// receiveEvent orders ev, of th, after from, another thread's event that
// knows m: first the check of Theorem 2 (from knows ev's open
// transaction, which is then broken), then what from knows becomes th's.
// A transaction th learns of for the first time is told by which edge.
func (k *Tracker) receiveEvent(th *thread, ev, from *trace.Event, m mask) {
	if m.hi == nil && !th.ownHigh() {
		k.receiveLow(th, ev, from, m.lo)
		return
	}
	k.work += int64(64 * (m.words() + 1))
	m = k.valid(m, from.Line)
	if x := th.tx; x != nil && x.broken == nil && m.has(x.slot) {
		x.broken = x.explain(ev, from, k.opts.MaxPath)
		th.own = 0
	}
	m.each(func(slot int32) {
		if th.m.has(slot) {
			return
		}
		th.m.add(slot)
		if y := k.slots[slot]; y.thread != ev.Thread {
			k.learn(y, ev, from)
		}
	})
}

// receiveLow is receiveEvent for a mask of the first word alone: of its
// slots only those th does not know and th's own are looked at.
func (k *Tracker) receiveLow(th *thread, ev, from *trace.Event, lo uint64) {
	lo &= k.busy.lo &^ (th.m.lo &^ th.own)
	for w := lo; w != 0; w &= w - 1 {
		if s := trailing(w); k.opened[s] > from.Line {
			lo &^= 1 << s
		}
	}
	if lo&th.own != 0 {
		th.tx.broken = th.tx.explain(ev, from, k.opts.MaxPath)
		th.own = 0
	}
	lo &^= th.m.lo
	th.m.lo |= lo
	for w := lo; w != 0; w &= w - 1 {
		if y := k.slots[trailing(w)]; y.thread != ev.Thread {
			k.learn(y, ev, from)
		}
	}
}

// valid is m as of line at: without the slots free now or opened again
// since (m.hi is copied before it changes: a record's never does).
func (k *Tracker) valid(m mask, at int64) mask {
	m.lo &= k.busy.lo
	for w := m.lo; w != 0; w &= w - 1 {
		if s := trailing(w); k.opened[s] > at {
			m.lo &^= 1 << s
		}
	}
	if m.hi == nil {
		return m
	}
	m = m.copied()
	m.each(func(s int32) {
		if s >= 64 && (k.slots[s] == nil || k.opened[s] > at) {
			m.remove(s)
		}
	})
	return m
}

// learn notes that ev's thread learned of y through from, unless the
// tracker remembers MaxKnown such ways already (y then overflows).
func (k *Tracker) learn(y *txn, ev, from *trace.Event) {
	if k.known >= k.opts.MaxKnown {
		y.overflow = true
		return
	}
	k.known++
	y.learn(ev.Thread, ev, from)
}
