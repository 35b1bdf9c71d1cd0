package report

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/conc-dev/conc/model"
)

// A real trace can put a million transactions on cycles, most of them the
// same few code paths run again and again. So conc monitor groups its
// violating transactions by a signature, as atomicity checkers for real
// code do (AVIO's access interleavings, Velodrome's blame): the code
// locations (STD's LOC) and operations of the interrupted transaction's two
// conflicting accesses (where the cycle leaves it and where it comes back),
// then the cycle's conflicts between threads (signature gives the exact
// rule). A location that is empty (RoadRunner's begin and end) is replaced
// by the event's variable, lock or thread. docs/traces.md shows examples.

// TraceEvent is an event of a trace resolved to names: its line, op (STD's
// spelling: r, w, acq, rel, fork, join, begin, end) and target.
type TraceEvent struct {
	Line   int    `json:"line"`
	Op     string `json:"op,omitempty"`
	Target string `json:"target,omitempty"`
	thread string
	op     model.Op
	loc    string
	known  bool // false: the line could not be read again (standard input)
}

// NewTraceEvent is the event at line of thread, with op on target at the
// code location loc ("" if none).
func NewTraceEvent(line int, thread string, op model.Op, stdOp, target, loc string) TraceEvent {
	return TraceEvent{Line: line, Op: stdOp, Target: target, thread: thread, op: op, loc: loc, known: true}
}

// CycleTxn is one transaction of a cycle: thread, begin line, end line (nil
// while open) and its events on the cycle, where the cycle enters and leaves it.
type CycleTxn struct {
	Thread string       `json:"thread"`
	Begin  int          `json:"begin"`
	End    *int         `json:"end"`
	Events []TraceEvent `json:"events"`
	// Stretch marks a stretch of a thread that a broken transaction's
	// path runs through (BrokenTxn.Cycle), from Begin to End, not a
	// transaction.
	Stretch bool `json:"stretch,omitempty"`
}

// Unary reports whether t is a lone event outside any atomic block (it
// begins and ends at one line).
func (t CycleTxn) Unary() bool {
	return !t.Stretch && t.End != nil && *t.End == t.Begin && len(t.Events) == 1
}

// Label names t in the text, the DOT and the HTML, its thread named by n:
// "T0 lines 5-open".
func (t CycleTxn) Label(n Naming) string {
	if t.Stretch {
		return t.stretchLabel(n)
	}
	return fmt.Sprintf("%s lines %d-%s", n.Thread(t.Thread), t.Begin, endText(t.End))
}

// Group is the violating transactions of one signature: how many, the
// first one's begin line, and the first one's cycle, starting from that
// violating transaction. An elided cycle (--max-cycle) leaves Elided
// transactions out just before Cycle[ElidedAt].
type Group struct {
	Signature string     `json:"signature"`
	Count     int        `json:"count"`
	First     int        `json:"first"`
	Cycle     []CycleTxn `json:"cycle"`
	Elided    int        `json:"elided,omitempty"`
	ElidedAt  int        `json:"elided_at,omitempty"`
	// Broken marks a group of transactions broken by themselves, whose
	// example is a path through other threads (BrokenTxn.Cycle), not a
	// cycle of transactions. Cut: the example path's start was not kept
	// (Elided 1 and ElidedAt 1 then stand for it).
	Broken bool `json:"-"`
	Cut    bool `json:"cut,omitempty"`
}

// elisionText names the left-out part of the example: an elided middle,
// or a path's start that was not kept.
func (g *Group) elisionText() string {
	if g.Cut {
		return "... the path's start was not kept ..."
	}
	return elision(g.Elided)
}

// GroupViolations groups r.Violations by signature, in order of first
// appearance (the violations are sorted by begin line), resolving their
// lines with events (a line it does not know is shown by number only). It
// sets r.Groups, and each violation's group for WriteText's --all list.
func GroupViolations(r *Report, events func(line int) (TraceEvent, bool)) {
	g := NewGrouper(events)
	for i := range r.Violations {
		r.Violations[i].group = g.Add(&r.Violations[i])
	}
	// Sorted by begin line, the violations made the groups in order of
	// their first: the indices just set stay right.
	r.Groups = g.Groups(func(begin int) *int {
		k, ok := slices.BinarySearchFunc(r.Violations, begin, func(v Violation, b int) int { return v.Begin - b })
		if !ok {
			return nil
		}
		return r.Violations[k].End
	})
}

// grouper is Grouper's scratch space, reused from one violation to
// the next.
type grouper struct {
	events func(int) (TraceEvent, bool)
	txns   []CycleTxn
	evs    []TraceEvent
	starts []int
	sig    []byte
	cross  []byte   // the cross-thread conflicts' text, one after another
	cuts   [][2]int // each one's bounds in cross
}

// cycleTxns is v's cycle as transactions, v's first, and the index of the
// transaction the elision (if any) comes just before; in scratch space, and
// without the other transactions' ends (example adds them).
func (gr *grouper) cycleTxns(v *Violation) ([]CycleTxn, int) {
	resolve := func(thread string, line int) TraceEvent {
		if e, ok := gr.events(line); ok {
			return e
		}
		return TraceEvent{Line: line, thread: thread}
	}
	evs := append(gr.evs[:0], resolve(v.Thread, v.Out))
	if v.In > 0 && v.In != v.Out {
		evs = append(evs, resolve(v.Thread, v.In))
	}
	starts := append(gr.starts[:0], 0)
	at := len(v.Cycle) + 1
	for i, s := range v.Cycle {
		if v.elidedBefore(i) {
			at = len(starts)
		}
		prev := v.Cycle[max(i-1, 0)]
		if i == 0 || prev.Thread != s.Thread || prev.Begin != s.Begin || v.elidedBefore(i) {
			starts = append(starts, len(evs))
		}
		evs = append(evs, resolve(s.Thread, s.Line))
	}
	if v.elidedBefore(len(v.Cycle)) {
		at = len(starts)
	}
	starts = append(starts, len(evs))
	txns := gr.txns[:0]
	for k := 0; k+1 < len(starts); k++ {
		t := CycleTxn{Thread: v.Thread, Begin: v.Begin, End: v.End, Events: evs[starts[k]:starts[k+1]]}
		if k > 0 {
			s := v.Cycle[starts[k]-starts[1]] // own events come first
			t.Thread, t.Begin, t.End = s.Thread, s.Begin, nil
		}
		txns = append(txns, t)
	}
	gr.evs, gr.starts, gr.txns = evs, starts, txns
	return txns, at
}

// signature is what the programmer would fix, in code locations and ops:
// the violating transaction's own two conflicting accesses (where the
// cycle leaves it and where it comes back; "unary" for a lone event, which
// is interrupted by nothing), then the cycle's conflicts between threads,
// "w@12→r@40" each, rotated to start at the least (so that every
// transaction on one cycle names it alike). Program order within a thread
// is left out: a chain of a thread's unary events on the cycle would make
// every one of them a signature of its own. "…" stands for an elided
// middle. The bytes are the scratch's, valid until the next call.
func (gr *grouper) signature(cycle []CycleTxn, elidedAt, elided int) []byte {
	own := cycle[0]
	b := gr.sig[:0]
	if own.Unary() {
		b = append(b, "unary"...)
	} else {
		for k, e := range own.Events {
			if k > 0 {
				b = append(b, ' ')
			}
			b = e.appendSite(b)
		}
	}
	gr.cross, gr.cuts = gr.cross[:0], gr.cuts[:0]
	for i := range cycle {
		from := len(gr.cross)
		if elided > 0 && i+1 == elidedAt {
			gr.cross = append(gr.cross, "…"...)
		} else if a, c := cycleEdge(cycle, i); kindOfTrace(a, c) != sameThread {
			gr.cross = append(a.appendSite(gr.cross), "→"...)
			gr.cross = c.appendSite(gr.cross)
		} else {
			continue
		}
		gr.cuts = append(gr.cuts, [2]int{from, len(gr.cross)})
	}
	least := 0
	for i := range gr.cuts {
		if gr.rotationLess(i, least) {
			least = i
		}
	}
	for k := range gr.cuts {
		c := gr.cuts[(least+k)%len(gr.cuts)]
		b = append(append(b, " | "...), gr.cross[c[0]:c[1]]...)
	}
	gr.sig = b
	return b
}

// rotationLess compares the conflicts rotated to start at i and at j,
// one by one.
func (gr *grouper) rotationLess(i, j int) bool {
	n := len(gr.cuts)
	for k := range n {
		x, y := gr.cuts[(i+k)%n], gr.cuts[(j+k)%n]
		if c := bytes.Compare(gr.cross[x[0]:x[1]], gr.cross[y[0]:y[1]]); c != 0 {
			return c < 0
		}
	}
	return false
}

// appendSite appends the event's code location and op: "w@Foo.java:12",
// or, without a location, "w x" (its target); "?" for an event not read
// again.
func (e TraceEvent) appendSite(b []byte) []byte {
	switch {
	case !e.known:
		return append(b, '?')
	case e.loc != "":
		return append(append(append(b, e.Op...), '@'), e.loc...)
	case e.Target != "":
		return append(append(append(b, e.Op...), ' '), e.Target...)
	}
	return append(b, e.Op...)
}

// named is e as a sentence names it.
func (e TraceEvent) named() namedEvent {
	n := namedEvent{thread: e.thread, op: e.op.String(), target: e.Target, pos: "line " + strconv.Itoa(e.Line)}
	if !e.known {
		n.op = "event"
	}
	return n
}

// kindOfTrace is kindOf for trace events (by names).
func kindOfTrace(a, b TraceEvent) conflictKind {
	return kindOfOps(a.thread, a.op, a.Target, b.thread, b.op, b.Target)
}
