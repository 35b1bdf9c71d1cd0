package report

import (
	"strconv"
	"strings"

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
}

// txnKey names a transaction of a trace: its thread and begin line.
type txnKey struct {
	thread string
	begin  int
}

// GroupViolations groups r.Violations by signature, in order of first
// appearance (the violations are sorted by begin line), resolving their
// lines with events (a line it does not know is shown by number only). It
// sets r.Groups, and each violation's group for WriteText's --all list.
func GroupViolations(r *Report, events func(line int) (TraceEvent, bool)) {
	ends := make(map[txnKey]*int, len(r.Violations))
	for i := range r.Violations {
		v := &r.Violations[i]
		ends[txnKey{v.Thread, v.Begin}] = v.End
	}
	index := map[string]int{}
	r.Groups = []Group{}
	for i := range r.Violations {
		v := &r.Violations[i]
		cycle, at := v.cycleTxns(events, ends)
		sig := signature(cycle, at, v.Elided)
		g, ok := index[sig]
		if !ok {
			g = len(r.Groups)
			index[sig] = g
			r.Groups = append(r.Groups, Group{Signature: sig, First: v.Begin, Cycle: cycle, Elided: v.Elided})
			if v.Elided > 0 {
				r.Groups[g].ElidedAt = at
			}
		}
		r.Groups[g].Count++
		v.group = g
	}
}

// cycleTxns is v's cycle as transactions, v's first, and the index of the
// transaction the elision (if any) comes just before.
func (v *Violation) cycleTxns(events func(int) (TraceEvent, bool), ends map[txnKey]*int) ([]CycleTxn, int) {
	resolve := func(thread string, line int) TraceEvent {
		if e, ok := events(line); ok {
			return e
		}
		return TraceEvent{Line: line, thread: thread}
	}
	own := CycleTxn{Thread: v.Thread, Begin: v.Begin, End: v.End, Events: []TraceEvent{resolve(v.Thread, v.Out)}}
	if v.In > 0 && v.In != v.Out {
		own.Events = append(own.Events, resolve(v.Thread, v.In))
	}
	txns := []CycleTxn{own}
	at := len(v.Cycle) + 1
	for i, s := range v.Cycle {
		if v.elidedBefore(i) {
			at = len(txns)
		}
		last := &txns[len(txns)-1]
		e := resolve(s.Thread, s.Line)
		if len(txns) > 1 && last.Thread == s.Thread && last.Begin == s.Begin && !v.elidedBefore(i) {
			last.Events = append(last.Events, e)
			continue
		}
		txns = append(txns, CycleTxn{Thread: s.Thread, Begin: s.Begin, End: ends[txnKey{s.Thread, s.Begin}], Events: []TraceEvent{e}})
	}
	if v.elidedBefore(len(v.Cycle)) {
		at = len(txns)
	}
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
// middle.
func signature(cycle []CycleTxn, elidedAt, elided int) string {
	own := cycle[0]
	var b strings.Builder
	if own.End != nil && *own.End == own.Begin && len(own.Events) == 1 {
		b.WriteString("unary")
	} else {
		for k, e := range own.Events {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(e.site())
		}
	}
	var cross []string
	for i := range cycle {
		if elided > 0 && i+1 == elidedAt {
			cross = append(cross, "…")
			continue
		}
		if from, to := cycleEdge(cycle, i); kindOfTrace(from, to) != sameThread {
			cross = append(cross, from.site()+"→"+to.site())
		}
	}
	least := 0
	for i := range cross {
		if strings.Join(append(cross[i:], cross[:i]...), " ") < strings.Join(append(cross[least:], cross[:least]...), " ") {
			least = i
		}
	}
	for _, c := range append(cross[least:], cross[:least]...) {
		b.WriteString(" | " + c)
	}
	return b.String()
}

// site is an event's code location and op: "w@Foo.java:12", or, without a
// location, "w x" (its target); "?" for an event not read again.
func (e TraceEvent) site() string {
	switch {
	case !e.known:
		return "?"
	case e.loc != "":
		return e.Op + "@" + e.loc
	case e.Target != "":
		return e.Op + " " + e.Target
	}
	return e.Op
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
	switch {
	case a.thread == b.thread:
		return sameThread
	case a.op.IsAccess() && b.op.IsAccess() && a.Target == b.Target && (a.op == model.OpWrite || b.op == model.OpWrite):
		return dataConflict
	case a.op == model.OpRelease && b.op == model.OpAcquire && a.Target == b.Target:
		return lockOrder
	case a.op == model.OpFork && a.Target == b.thread:
		return forkOrder
	case b.op == model.OpJoin && b.Target == a.thread:
		return joinOrder
	}
	return unexplained
}
