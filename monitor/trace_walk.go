package monitor

// cycleOf builds the reported cycle through the transaction with search
// index j: the shortest path from j back to x (next edges, ending with a
// closing edge into x), then the tree path from x down to j. That closed
// walk is cut down to a simple cycle; one longer than MaxCycle keeps its
// two ends and counts the middle in Elided, so that marking the thousands
// of transactions on one long cycle stays linear.
func (m *TraceMonitor) cycleOf(j int32) TraceViolation {
	s := &m.search
	lim := m.opts.MaxCycle
	n := s.order[j]
	v := TraceViolation{Thread: n.thread, Begin: n.begin, End: n.end}
	var fw []traceHop
	for at := j; len(fw) <= lim+1; {
		h := s.next[at]
		fw = append(fw, h)
		if at = h.to; at == 0 {
			break
		}
	}
	var bw []traceHop // tree edges into j, into its parent, ...
	for at := j; at != 0 && len(bw) <= lim+1; at = s.parent[at].from {
		bw = append(bw, s.parent[at])
	}
	closed := fw[len(fw)-1].to == 0 && (j == 0 || bw[len(bw)-1].from == 0)
	if closed && len(fw)+len(bw)-1 <= lim {
		walk := fw
		for i := len(bw) - 1; i >= 0; i-- {
			walk = append(walk, bw[i])
		}
		v.Cycle = m.listHops(simplify(walk))
		return v
	}
	head, tail := lim/2, lim-lim/2
	v.Cycle = m.listHops(fw[:min(head+1, len(fw))])
	rtail := make([]traceHop, 0, tail+1)
	for i := min(tail, len(bw)-1); i >= 0; i-- {
		rtail = append(rtail, bw[i])
	}
	v.Cycle = append(v.Cycle, m.listHops(rtail)...)
	total := int(s.depth[j]) + int(s.dist[j]) - 1 // transactions on the walk but j
	v.Elided = max(total-min(head, len(fw)-1)-max(len(rtail)-1, 0), 0)
	return v
}

// simplify cuts the loops out of a closed walk (hops chained to, from) so
// that no transaction but its first repeats: a simple cycle through it.
func simplify(walk []traceHop) []traceHop {
	pos := map[int32]int{walk[0].from: 0} // transaction -> hops kept before it
	out := walk[:0:0]
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
func (m *TraceMonitor) listHops(hops []traceHop) []CycleEvent {
	var evs []CycleEvent
	for i := 1; i < len(hops); i++ {
		evs = m.appendVisit(evs, hops[i].from, hops[i-1].atLine, hops[i].fromLine)
	}
	return evs
}

func (m *TraceMonitor) appendVisit(evs []CycleEvent, j int32, in, out int64) []CycleEvent {
	t := m.search.order[j].thread
	evs = append(evs, CycleEvent{Thread: t, Line: in})
	if out != in {
		evs = append(evs, CycleEvent{Thread: t, Line: out})
	}
	return evs
}
