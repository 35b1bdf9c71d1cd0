package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// walkHop is an edge of a reported cycle: From -> To, witnessed by the
// event at line FromLine of From and the conflicting later one at AtLine of To.
type walkHop struct {
	from, to       *txn.Txn
	fromLine       int64
	atLine         int64
	fromIdx, toIdx int32 // search indices, where the hop came from a search
}

// cycleOf builds the reported cycle through the transaction with search
// index j, for closures: the shortest path from j back to x (next edges,
// ending with a closing edge into x), then the tree path from x down to j,
// each with its same-thread runs shortcut (runs.go).
func (m *TraceMonitor) cycleOf(j int32) TraceViolation {
	s := &m.search
	lim := m.opts.MaxCycle
	n := s.order[j]
	v := TraceViolation{Thread: n.Thread, Begin: n.Begin, End: n.End}
	s.fillWays(m.searchBudget())
	fw, closed := s.wayBack(j, lim)
	if k := len(fw); k > 0 && s.isLoose(fw[k-1].toIdx) {
		fw = m.chainOn(fw, lim+2)
	}
	var bw []walkHop
	at := j
	for ; at != 0 && len(bw) <= lim+1; at = bw[len(bw)-1].fromIdx {
		bw = append(bw, s.upHop(at))
	}
	_, _, up := s.bwRuns.find(s, s.epoch, j, s.parentLink)
	_, _, down := s.runBack(j)
	m.describe(&v, fw, bw, closed && at == 0, int(up)+int(down)-1)
	return v
}

// wayBack follows next hops from index j towards x (index 0), a same-thread
// run as one hop, for at most lim+2 hops (one more than a listing shows)
// or up to a loose transaction (stop.go); closed says it reached x.
func (s *traceSearch) wayBack(j int32, lim int) (fw []walkHop, closed bool) {
	for at := j; len(fw) <= lim+1 && !s.isLoose(at); {
		h := s.walkHop(s.next[at])
		if end, line, _ := s.runBack(at); end != at {
			h.to, h.atLine, h.toIdx = s.order[end], line, end
		}
		fw = append(fw, h)
		if at = h.toIdx; at == 0 {
			return fw, true
		}
	}
	return fw, false
}

// upHop is the tree hop into index at, or the shortcut up its whole
// same-thread run.
func (s *traceSearch) upHop(at int32) walkHop {
	h := s.walkHop(s.parent[at])
	if end, line, _ := s.bwRuns.find(s, s.epoch, at, s.parentLink); end != at {
		h.from, h.fromLine, h.fromIdx = s.order[end], line, end
	}
	return h
}

func (s *traceSearch) walkHop(h traceHop) walkHop {
	return walkHop{from: s.order[h.from], to: s.order[h.to], fromLine: h.fromLine, atLine: h.atLine, fromIdx: h.from, toIdx: h.to}
}

// describe fills v's cycle from the hops leaving its transaction (fw, in
// order) and those entering it (bw, nearest first). When fw and bw close
// the walk and it is short, the walk is cut down to a simple cycle and
// listed whole; a longer one keeps its two ends and counts the middle in
// Elided (total estimates the transactions on it besides v's), so that
// marking the thousands of transactions on one long cycle stays linear.
func (m *TraceMonitor) describe(v *TraceViolation, fw, bw []walkHop, closed bool, total int) {
	lim := m.opts.MaxCycle
	if closed && len(fw)+len(bw)-1 <= lim {
		walk := fw
		for i := len(bw) - 1; i >= 0; i-- {
			walk = append(walk, bw[i])
		}
		walk = shortcut(simplify(walk), false)
		v.Cycle = listHops(walk)
		v.Out, v.In = walk[0].fromLine, walk[len(walk)-1].atLine
		return
	}
	v.Out = fw[0].fromLine
	if len(bw) > 0 && bw[0].to == fw[0].from {
		v.In = bw[0].atLine
	}
	head, tail := lim/2, lim-lim/2
	v.Cycle = listHops(fw[:min(head+1, len(fw))])
	v.ElidedAt = len(v.Cycle)
	rtail := make([]walkHop, 0, tail+1)
	for i := min(tail, len(bw)-1); i >= 0; i-- {
		rtail = append(rtail, bw[i])
	}
	v.Cycle = append(v.Cycle, listHops(rtail)...)
	shown := min(head, len(fw)-1) + max(len(rtail)-1, 0)
	v.Elided = max(total-shown, 1)
}

// simplify cuts the loops out of a closed walk so that no transaction but
// its first repeats: a simple cycle through it.
func simplify(walk []walkHop) []walkHop {
	pos := map[*txn.Txn]int{walk[0].from: 0} // transaction -> hops kept before it
	var out []walkHop
	for _, h := range walk {
		out = append(out, h)
		if p, ok := pos[h.to]; ok && h.to != walk[0].from {
			for _, g := range out[p:] {
				if g.to != h.to {
					delete(pos, g.to)
				}
			}
			out = out[:p]
			continue
		}
		pos[h.to] = len(out)
	}
	return out
}

// listHops lists, for the transactions strictly inside a chain of hops, the
// event where the chain enters each and, if another, where it leaves.
func listHops(hops []walkHop) []CycleEvent {
	var evs []CycleEvent
	for i := 1; i < len(hops); i++ {
		n, in, out := hops[i].from, hops[i-1].atLine, hops[i].fromLine
		if n.Unary && out != in {
			// A run's events are transactions of their own: along
			// program order into or out of the run, the one at its
			// other end is enough (absorb.go).
			switch {
			case hops[i-1].from.Thread == n.Thread:
				in = out
			case hops[i].to.Thread == n.Thread:
				out = in
			}
		}
		evs = append(evs, CycleEvent{Thread: n.Thread, Line: in, Begin: runBegin(n, in)})
		if out != in {
			evs = append(evs, CycleEvent{Thread: n.Thread, Line: out, Begin: runBegin(n, out)})
		}
	}
	return evs
}
