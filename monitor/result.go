package monitor

import (
	"sort"

	"github.com/conc-dev/conc/monitor/internal/txn"
)

// TraceOptions configure TraceMonitor (and the pass over a trace that
// runs it, package monitor/pass).
type TraceOptions struct {
	// LockEdges adds release→acquire and fork/join conflicts (docs/spec.md §1), as
	// Velodrome and AeroDrome (and so RAPID) do.
	LockEdges bool
	// MaxCycle bounds the transactions listed in one violation's cycle; the
	// middle of a longer cycle is elided (Violation.Elided). 0 means
	// DefaultMaxCycle.
	MaxCycle int
	// MaxViolations bounds the violations kept in the result (all are still
	// counted). 0 means no bound.
	MaxViolations int
	// OnViolation, if set, is handed each violation once its transaction's
	// end is known (or the trace ended), in that order, not by begin line;
	// the result then keeps none (Violations stays empty, Count counts
	// them), so that a caller that only aggregates holds no violation.
	OnViolation func(*TraceViolation)
	// CountBlocks counts, in TraceResult.Count, only the atomic blocks
	// (begin/end transactions) on a cycle, not the unary transactions
	// (events outside any block, which no event can interrupt). Every
	// cycle passes through a block. With MaxViolations 1 the monitor then
	// merges a thread's runs of unary events (absorb.go), so that a
	// trace of many events outside blocks keeps few nodes.
	CountBlocks bool
}

// CycleEvent is one event of a reported cycle: its thread and trace line,
// and the line of its transaction's begin (of its one event if unary), which
// tells consecutive events of one thread on a cycle apart as one
// transaction or two.
type CycleEvent struct {
	Thread int32
	Line   int64
	Begin  int64
}

// TraceViolation is a transaction that lies on a cycle of the conflict
// graph, with one such cycle. Begin is the line of its begin (of its one
// event if unary), End that of its end, or -1 while it is open. Cycle lists
// the events of the other transactions on the cycle, in cycle order from
// this one: for each, the event where the cycle enters it and, when it is
// another, the event where the cycle leaves it. Elided counts transactions
// left out of the middle of a cycle longer than MaxCycle (at least 1; an
// estimate when the search for the whole cycle was cut short); they were
// between Cycle[ElidedAt-1] and Cycle[ElidedAt]. The listed events are real
// conflicts either way. Out and In are the lines of this transaction's own
// events where the cycle leaves it and where it comes back (In is 0 when an
// elided cycle does not show the way back): the interrupted transaction's
// two conflicting accesses, of which report's signatures are made.
type TraceViolation struct {
	Thread  int32
	Begin   int64
	End     int64
	Out, In int64
	Cycle   []CycleEvent
	// Ends, for the first violation described only, is the end line of
	// each Cycle event's transaction (-1 while open; that of a unary one
	// is its line), filled as they end: the joint violation's cycle names
	// its transactions' lines.
	Ends     []int64
	Elided   int
	ElidedAt int
}

// TraceStats are the monitor's counters.
type TraceStats struct {
	Events  int64 // events stepped
	Txns    int64 // transactions, unary ones included
	Edges   int64 // conflict edges added
	MaxLive int64 // most transactions kept in the graph at once
	GCs     int64 // garbage collections of the graph
	// Contracted counts the completed members of components contracted
	// into their representative (contract.go).
	Contracted int64
	// Absorbed counts the unary events that joined their thread's run
	// instead of getting a node (absorb.go).
	Absorbed int64
	Millis   int64 // the wall time of the whole pass (set by monitor/pass)
}

// TraceResult is the monitor's answer on an observed trace.
type TraceResult struct {
	Violation  bool
	First      int64 // line of the first event after which the trace is not serializable; 0 if none
	Violations []TraceViolation
	Count      int64 // violations found (Violations may be capped)
	Stats      TraceStats
}

// Finish reports the open transactions' violations and returns the result.
// The monitor must not be stepped afterwards.
func (m *TraceMonitor) Finish() TraceResult {
	for _, th := range m.threads {
		if x := th.cur; x != nil && x.Viol != txn.NoViolation {
			m.emit(x)
		}
	}
	sort.Slice(m.res.Violations, func(i, j int) bool {
		a, b := m.res.Violations[i], m.res.Violations[j]
		if a.Begin != b.Begin {
			return a.Begin < b.Begin
		}
		return a.Thread < b.Thread
	})
	m.res.Violation = m.first > 0
	m.res.First = m.first
	m.res.Stats = m.stats
	return m.res
}

// emit hands over x's violation once its end is known (or the trace ended).
func (m *TraceMonitor) emit(x *txn.Txn) {
	for _, i := range m.watch[[2]int64{int64(x.Thread), x.Begin}] {
		m.ends[i] = x.End
	}
	state := x.Viol
	x.Viol = txn.NoViolation
	m.res.Count += int64(m.blocks(x)) + int64(x.Weight) // and those merged into it
	if state == txn.Counted {
		return // kept are described ones only
	}
	v := m.pending[x]
	delete(m.pending, x)
	v.End = x.End
	if m.opts.OnViolation != nil {
		m.opts.OnViolation(&v)
		return
	}
	if m.opts.MaxViolations == 0 || len(m.res.Violations) < m.opts.MaxViolations {
		m.res.Violations = append(m.res.Violations, v)
	}
}

// violation marks n violating, its cycle spelled out by describe unless
// nobody will see it: once MaxViolations described violations exist, later
// ones are only counted. Describing costs up to MaxCycle hops each, and one
// event can put a hundred thousand transactions on cycles at once (a main
// thread's join).
func (m *TraceMonitor) violation(n *txn.Txn, describe func() TraceViolation) {
	if m.opts.MaxViolations > 0 && m.described >= m.opts.MaxViolations {
		n.Viol = txn.Counted // emit only counts it
		return
	}
	m.described++
	v := describe()
	if m.described == 1 {
		m.watchEnds(&v)
	}
	if m.pending == nil {
		m.pending = map[*txn.Txn]TraceViolation{}
	}
	m.pending[n] = v
	n.Viol = txn.Described
}

// watchEnds has emit fill v.Ends as v's cycle's transactions end.
func (m *TraceMonitor) watchEnds(v *TraceViolation) {
	v.Ends = make([]int64, len(v.Cycle))
	m.watch = map[[2]int64][]int{}
	for i, c := range v.Cycle {
		v.Ends[i] = -1
		if c.Begin == c.Line {
			v.Ends[i] = c.Line // a unary transaction, or its first event
		}
		k := [2]int64{int64(c.Thread), c.Begin}
		m.watch[k] = append(m.watch[k], i)
	}
	m.ends = v.Ends
}
