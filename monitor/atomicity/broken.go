package atomicity

import "github.com/conc-dev/conc/trace"

// Hop is one edge of an explanation: From comes before To in the order →,
// From and To of different threads: two conflicting accesses to a
// variable, or with lock edges a release and a later acquire of a lock, a
// fork and the child's first event, or a thread's last event and its join.
type Hop struct {
	From, To trace.Event
}

// Broken is a transaction that is not atomic by itself, with the path that
// breaks it. Begin is the line of its begin and BeginLoc the begin's
// location (-1: none); End is the line of its end, -1 while it is open.
//
// Path leaves the transaction at Path[0].From (an event of its own),
// passes through events of other threads, and comes back at the last hop's
// To (an event of its own, after the leave in program order). Between two
// hops it stays in one thread: Path[i].To and Path[i+1].From are events of
// one other thread, the first no later than the second. No thread is
// visited twice.
type Broken struct {
	Thread     int32
	Begin, End int64
	BeginLoc   int32
	Path       []Hop
	// Cut: the path's start was not recorded (more transactions open at
	// once than Options.MaxKnown lets the tracker remember the ways
	// of): Path runs from another thread's event on, and Leave is not
	// the transaction's own event.
	Cut bool
	// Elided counts the hops left out of the middle of a path longer than
	// Options.MaxPath; they lie between Path[ElidedAt-1] and
	// Path[ElidedAt] (which then belong to different threads).
	Elided, ElidedAt int
}

// Leave is the transaction's event where the path leaves it.
func (b *Broken) Leave() trace.Event { return b.Path[0].From }

// Interrupt is the other thread's event the path comes back from: the
// access (or ordering event) that interrupts the transaction.
func (b *Broken) Interrupt() trace.Event { return b.Path[len(b.Path)-1].From }

// Return is the transaction's event where the path comes back.
func (b *Broken) Return() trace.Event { return b.Path[len(b.Path)-1].To }
