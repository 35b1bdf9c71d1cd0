package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// Program-order shortcuts. In the conflict graph (docs/spec.md §1) every
// transaction of a thread has an edge to every later one of that thread, so
// a stretch of a cycle through consecutive hops inside one thread, A -> A'
// -> ... -> B, may be listed as the single program-order hop A -> B (from
// A's event to B's) and the listing is still a real cycle. Without this a
// long run of one thread's unary transactions fills --max-cycle and hides
// the conflicts between threads, which are what a reader needs.

// runMemo memoises, for each index of one search, where its same-thread run
// ends along one of the search's chains (next towards x, or parent up the
// tree), and how many hops the shortcut chain from it to index 0 has. The
// entries are valid for one search epoch (stamp), and each is filled once
// (path compression), so listing a cycle costs O(listed hops) amortised.
type runMemo struct {
	stamp []uint32
	end   []int32 // last index of the run from i (i itself: no run)
	line  []int64 // witness line at the run's far end (end != i)
	hops  []int32 // hops of the shortcut chain from i to index 0
	stack []int32
}

// runLink is one step of a chain: the index after i and the hop's line at
// the far end (the atLine along next, the fromLine along parent).
type runLink func(i int32) (int32, int64)

// find returns i's run end and far line, and the shortcut hop count from i.
func (r *runMemo) find(s *traceSearch, epoch uint32, i int32, link runLink) (int32, int64, int32) {
	for len(r.stamp) < len(s.order) {
		r.stamp, r.end = append(r.stamp, 0), append(r.end, 0)
		r.line, r.hops = append(r.line, 0), append(r.hops, 0)
	}
	r.stack = r.stack[:0]
	for at := i; r.stamp[at] != epoch; {
		if at == 0 {
			r.stamp[0], r.end[0], r.hops[0] = epoch, 0, 0
			break
		}
		if s.isLoose(at) { // the chain's known part ends here (stop.go)
			r.stamp[at], r.end[at], r.line[at], r.hops[at] = epoch, at, 0, s.looseHops()
			break
		}
		r.stack = append(r.stack, at)
		at, _ = link(at)
	}
	for p := len(r.stack) - 1; p >= 0; p-- {
		c := r.stack[p]
		k, ln := link(c)
		r.stamp[c], r.end[c], r.line[c], r.hops[c] = epoch, c, 0, r.hops[k]+1
		if !s.sameThread(c, k) {
			continue
		}
		if r.end[k] != k {
			ln = r.line[k]
		}
		// c's run reaches k's run end; it costs a hop of its own only
		// when k's run is k alone (the hop c -> k is then the whole run).
		r.end[c], r.line[c] = r.end[k], ln
		if r.end[k] != k {
			r.hops[c] = r.hops[k]
		}
	}
	return r.end[i], r.line[i], r.hops[i]
}

// sameThread says indices a and b are transactions of one thread.
func (s *traceSearch) sameThread(a, b int32) bool {
	return s.order[a].Thread == s.order[b].Thread
}

// runBack is find along next. Index 0 (x) ends every other chain, so its
// own way back, next[0] into the search and on, is read off its successor's.
func (s *traceSearch) runBack(i int32) (int32, int64, int32) {
	if i != 0 {
		return s.fwRuns.find(s, s.epoch, i, s.nextLink)
	}
	k := s.next[0].to
	end, line, hops := s.fwRuns.find(s, s.epoch, k, s.nextLink)
	switch {
	case !s.sameThread(0, k):
		return 0, 0, hops + 1
	case end == k:
		return k, s.next[0].atLine, hops + 1
	}
	return end, line, hops
}

// nextLink steps along next (towards x); parentLink up the BFS tree.
func (s *traceSearch) nextLink(i int32) (int32, int64) {
	return s.next[i].to, s.next[i].atLine
}

func (s *traceSearch) parentLink(i int32) (int32, int64) {
	return s.parent[i].from, s.parent[i].fromLine
}

// shortcut merges, in a chain of hops, each run of consecutive same-thread
// hops into one program-order hop, in place (the writes lag the reads), so
// that it allocates nothing. The chain is in path order, or with back
// listed nearest its end first (a merged hop then reaches further back).
func shortcut(hops []walkHop, back bool) []walkHop {
	out := hops[:0]
	for _, h := range hops {
		if k := len(out) - 1; k >= 0 && samePO(out[k]) && samePO(h) && out[k].from.Thread == h.from.Thread {
			if back {
				out[k].from, out[k].fromLine = h.from, h.fromLine
			} else {
				out[k].to, out[k].atLine = h.to, h.atLine
			}
			continue
		}
		out = append(out, h)
	}
	return out
}

// samePO says h stays inside one thread (a program-order hop).
func samePO(h walkHop) bool { return h.from.Thread == h.to.Thread }

// jumpPO shortens a closed walk (a cycle through walk[0].from, possibly
// repeating transactions) with program-order hops, in place: from each
// transaction it goes on from the last one on the walk that is the same or
// a later one of its thread, cutting out what lies between (a loop, or a
// detour through other threads: the hop is an edge of §1's conflict graph
// all the same). The result repeats no transaction, and no two of its
// consecutive hops stay in one thread (either would have been jumped), so
// it is what simplify and shortcut would make of it, and shorter. It is
// quadratic in the walk's length, which is bounded by the listing's.
func jumpPO(walk []walkHop) []walkHop {
	m := len(walk)
	last := walk[m-1].to // the walk's own transaction, again
	node := func(j int) *txn.Txn {
		if j == m {
			return last
		}
		return walk[j].from
	}
	out := walk[:0] // writes trail the reads: out[k] is written after walk[i], k ≤ i, was read
	for i := 0; i < m; {
		w := node(i)
		j := m
		if i == 0 {
			j = m - 1 // the cycle's own transaction closes it; keep one hop at least
		}
		for ; j > i+1; j-- {
			if u := node(j); u == w || u.Thread == w.Thread && u.Begin > w.Begin {
				break
			}
		}
		switch {
		case j > i+1 && node(j) == w: // a loop back to w: cut it
			i = j
		case j > i+1:
			out = append(out, poHop(walk[i], walk[j-1], w, node(j)))
			i = j
		default:
			out = append(out, walk[i])
			i++
		}
	}
	return out
}

// poHop is the program-order hop from a to b standing for the hops first
// to last, with their lines where they stay in a's or b's thread already
// (as shortcut keeps them), else a's last event and b's first.
func poHop(first, last walkHop, a, b *txn.Txn) walkHop {
	h := walkHop{from: a, to: b, fromLine: lastLine(a), atLine: b.Begin}
	if samePO(first) {
		h.fromLine = first.fromLine
	}
	if samePO(last) {
		h.atLine = last.atLine
	}
	return h
}
