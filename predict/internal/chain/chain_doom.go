package chain

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The normal run of the lock-free check (Plan) is tried as a witness of the
// trace with its locks (predict/cascade.go, step 2), and on a locked trace
// it rarely respects them: thread i stops at a inside a critical section, and
// a link thread, run from its start to its events, acquires that lock on the
// way. Its events can lie far into the trace (a chain's link at line 858,409
// of 10^6), so locating them and materialising the run cost two passes over
// most of the spool, for a run that verify then refuses. lockDoom sees that
// while locating and stops: i holds lock L once it has taken its edges
// through a (edge p), and it stays there until every link has run; a link
// thread j runs from its start through the later of its two located events,
// so an acquire of L by j before both are located is in its segment, and the
// run acquires a lock held by another thread, which verify.Prefix refuses
// (lock validity). Only locks below 64 are tracked (lockset), which only
// makes the test apply less. A doomed run is one that would have been
// refused, so the answer is the same.

// lockDoom follows thread i's locks up to edge p and the links' acquires
// before their located events, during locate's pass.
type lockDoom struct {
	i      int
	p      int64
	now    proj.LockSet // i's locks so far
	held   proj.LockSet // i's locks after its edge p, once seen (seen)
	seen   bool
	acq    []proj.LockSet // per link thread: locks acquired before its last event
	link   []bool
	doomed bool
}

// newLockDoom watches the normal run i up to p, then each link of qs.
func newLockDoom(k, i int, p int64, qs []Query) *lockDoom {
	d := &lockDoom{i: i, p: p, acq: make([]proj.LockSet, k), link: make([]bool, k)}
	for _, q := range qs {
		d.link[q.t] = true
	}
	return d
}

// event takes thread t's event (op on target), after which t has taken
// next edges; open reports whether t still has a query unanswered (its
// segment goes on past this event). It reports whether the run is doomed.
func (d *lockDoom) event(t int, op model.Op, target int32, next int64, open bool) bool {
	switch {
	case t == d.i && !d.seen:
		d.follow(op, target)
		if next > d.p { // i has taken its edges through p
			d.held, d.seen = d.now, true
			for _, a := range d.acq {
				d.doomed = d.doomed || a&d.held != 0
			}
		}
	case op == model.OpAcquire && d.link[t] && open:
		d.acq[t].Add(target)
		d.doomed = d.doomed || d.seen && d.acq[t]&d.held != 0
	}
	return d.doomed
}

// follow updates i's locks with its event.
func (d *lockDoom) follow(op model.Op, target int32) {
	switch op {
	case model.OpAcquire:
		d.now.Add(target)
	case model.OpRelease:
		d.now.Remove(target)
	}
}
