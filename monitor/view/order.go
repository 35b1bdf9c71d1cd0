package view

import "slices"

// reach tells whether a reaches b in the graph with the arcs added so
// far. The order is topological, so only nodes between a and b in it can
// lie on a path.
func (s *search) reach(a, b int32) bool {
	if a == b {
		return true
	}
	if s.ord[a] > s.ord[b] {
		return false
	}
	limit := s.ord[b]
	s.newStamp()
	stack := append(s.stack[:0], a)
	defer func() { s.stack = stack[:0] }()
	s.mark[a] = s.stamp
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		found := false
		s.eachOut(v, func(t int32) bool {
			if t == b {
				found = true
				return false
			}
			if s.mark[t] != s.stamp && s.ord[t] < limit {
				s.mark[t] = s.stamp
				stack = append(stack, t)
			}
			return true
		})
		if found {
			return true
		}
		if s.stop != "" {
			return false
		}
	}
	return false
}

// eachOut calls f on the heads of v's arcs, static and added, until f
// returns false; it counts them as work.
func (s *search) eachOut(v int32, f func(t int32) bool) {
	row := s.g.to[s.g.off[v]:s.g.off[v+1]]
	s.tick(len(row) + 1)
	for _, t := range row {
		if !f(t) {
			return
		}
	}
	for _, i := range s.outArcs[v] {
		if _, t := s.ends(int(i), s.state[i]); !f(t) {
			return
		}
	}
}

// eachIn is eachOut over the arcs into v.
func (s *search) eachIn(v int32, f func(t int32)) {
	row := s.rev.to[s.rev.off[v]:s.rev.off[v+1]]
	s.tick(len(row) + 1)
	for _, t := range row {
		f(t)
	}
	for _, i := range s.inArcs[v] {
		from, _ := s.ends(int(i), s.state[i])
		f(from)
	}
}

func (s *search) newStamp() {
	s.stamp++
	if s.stamp == 0 {
		clear(s.mark)
		s.stamp = 1
	}
}

// addArc adds arc from → to of choice i (no cycle: the caller checked)
// and restores the order's topology (Pearce and Kelly): when to comes
// before from, the nodes reachable from to up to from's place and those
// reaching from down to to's place swap their places, in their order.
func (s *search) addArc(from, to, i int32) {
	s.outArcs[from] = append(s.outArcs[from], i)
	s.inArcs[to] = append(s.inArcs[to], i)
	lb, ub := s.ord[to], s.ord[from]
	if lb > ub {
		return
	}
	fwd := s.collect(to, func(v int32, f func(int32)) { s.eachOut(v, func(t int32) bool { f(t); return true }) },
		func(t int32) bool { return s.ord[t] <= ub })
	bwd := s.collect(from, s.eachIn, func(t int32) bool { return s.ord[t] >= lb })
	byOrd := func(a, b int32) int { return int(s.ord[a] - s.ord[b]) }
	slices.SortFunc(fwd, byOrd)
	slices.SortFunc(bwd, byOrd)
	nodes := append(bwd, fwd...)
	places := make([]int32, len(nodes))
	for j, v := range nodes {
		places[j] = s.ord[v]
	}
	slices.Sort(places)
	for j, v := range nodes {
		s.ord[v], s.at[places[j]] = places[j], v
	}
}

// collect is the nodes reached from v through next's arcs, staying
// within the nodes in.
func (s *search) collect(v int32, next func(int32, func(int32)), in func(int32) bool) []int32 {
	s.newStamp()
	out := []int32{v}
	s.mark[v] = s.stamp
	for j := 0; j < len(out); j++ {
		next(out[j], func(t int32) {
			if s.mark[t] != s.stamp && in(t) {
				s.mark[t] = s.stamp
				out = append(out, t)
			}
		})
	}
	return out
}
