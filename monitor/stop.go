package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// Stopping at the sources' component. When every source of the new edges
// that lies outside x's component lies in one component C, closures'
// search from x does not expand C's transactions (it holds them): a
// transaction v on a path x ⇝ s to a source s whose every such path
// passes a transaction c of C has c ⇝ v ⇝ s, and so lies in C already
// (a strongly connected component); the others the search finds as
// before. A held transaction reached is on a new cycle (it reaches every
// source in C), and so is all of C. Without the stop, when thousands of
// threads' transactions close cycles one after another into one growing
// component, each search passes the whole component: quadratic.
//
// The way from a held transaction to a source, inside C, is needed only
// to describe a cycle, and only the hops a listing shows: fillWays finds
// it by a bounded search backwards from the sources, once per search, and
// where the budget runs out the listing goes on along any edges inside C
// (chainOn) and elides the rest (every transaction of C reaches a source).

// stopAt is the component every source outside rx lies in, if one (nil if
// several), and whether any source lies outside rx.
func stopAt(srcs []txn.Src, rx *txn.Txn) (stop *txn.Txn, outside bool) {
	for _, src := range srcs {
		r := txn.Find(src.Txn)
		switch {
		case r == rx:
		case !outside:
			stop, outside = r, true
		case r != stop:
			stop = nil
		}
	}
	return stop, outside
}

// pendingWays is what fillWays needs of the current closures call: its
// sources, the event's line, and whether the held transactions' ways are
// still to find.
type pendingWays struct {
	srcs []txn.Src
	line int64
	todo bool
}

// isLoose tells whether index j is held and its way on is not known.
func (s *traceSearch) isLoose(j int32) bool {
	return int(j) < len(s.loose) && s.loose[j]
}

// looseHops estimates the hops from a loose transaction back to x: at
// most the stop component's transactions, then the closing edge.
func (s *traceSearch) looseHops() int32 { return s.stop.Size + 1 }

// fillWays finds, for the loose transactions, a way to a source inside the
// stop component: a breadth-first search backwards from the sources in it
// over at most budget transactions of it, indexing those it passes.
func (s *traceSearch) fillWays(budget int) {
	if !s.ways.todo {
		return
	}
	s.ways.todo = false
	q0 := len(s.queue)
	for _, src := range s.ways.srcs {
		u := src.Txn
		if txn.Find(u) != s.stop {
			continue
		}
		// (A source the search reached has its closing hop already;
		// it is queued all the same, possibly twice: harmless.)
		j, _ := s.wayTo(u, traceHop{to: 0, fromLine: src.Line, atLine: s.ways.line})
		s.queue = append(s.queue, j)
	}
	for q := q0; q < len(s.queue) && len(s.queue)-q0 < budget; q++ {
		j := s.queue[q]
		c := s.order[j]
		s.steps += int64(min(len(c.In), budget))
		for i := len(c.In) - 1; i >= max(0, len(c.In)-budget); i-- {
			e := c.In[i]
			if p := e.To; !p.Dead && txn.Find(p) == s.stop {
				if k, ok := s.wayTo(p, traceHop{to: j, fromLine: e.From, atLine: e.At}); ok {
					s.queue = append(s.queue, k)
				}
			}
		}
	}
}

// wayTo gives n (of the stop component) the way on h if it has none yet,
// indexing it if the search had not reached it; it tells whether it did.
func (s *traceSearch) wayTo(n *txn.Txn, h traceHop) (int32, bool) {
	if n.Stamp != s.epoch {
		n.Stamp, n.Idx = s.epoch, int32(len(s.order))
		s.order = append(s.order, n)
		s.parent = append(s.parent, traceHop{from: -1, to: n.Idx})
		s.held = append(s.held, true)
		s.next = append(s.next, traceHop{to: -1})
		s.loose = append(s.loose, false)
	}
	j := n.Idx
	if s.next[j].to >= 0 && !s.loose[j] {
		return j, false
	}
	h.from = j
	s.next[j], s.loose[j] = h, false
	return j, true
}

// chainOn continues fw, which ends in a loose transaction, along edges
// inside the stop component, newest first, never twice through one
// transaction, up to lim hops in all.
func (m *TraceMonitor) chainOn(fw []walkHop, lim int) []walkHop {
	s := &m.search
	m.paths.epoch++
	for _, h := range fw {
		h.from.PStamp = m.paths.epoch
	}
	for c := fw[len(fw)-1].to; len(fw) < lim; {
		c.PStamp = m.paths.epoch
		var next *walkHop
		for i := len(c.Out) - 1; i >= max(0, len(c.Out)-4*lim-64); i-- {
			e := c.Out[i]
			if n := e.To; n.PStamp != m.paths.epoch && !n.Dead && txn.Find(n) == s.stop {
				next = &walkHop{from: c, to: n, fromLine: e.From, atLine: e.At, fromIdx: -1, toIdx: -1}
				break
			}
		}
		if next == nil {
			break
		}
		fw = append(fw, *next)
		c = next.to
	}
	return fw
}
