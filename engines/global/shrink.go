package global

import (
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/graph"
)

// shrinkWitness cuts a witness down to what its cycle needs: every thread
// keeps the prefix of its events up to its last event on the cycle (none if
// it has none), extended only as far as the run's validity demands (a lock
// it holds, or read-holds, that a kept thread later acquires is released
// first; a joined thread is kept whole; a kept forked thread keeps its
// fork; with docs/spec.md §3's orderings a kept wait keeps every post of
// its message, and a kept take a give not yet taken). The kept
// events, in their original order, are a run of the program: each thread
// follows a prefix of its path, and the kept lock, fork, join and ordering
// events are valid. Transactions are prefixes of the old ones and every conflict
// between kept events is still there, so the cycle survives; it is
// recomputed by the exact conflict graph. The search's path contains every
// thread's private work up to the violation, which is noise to a reader.
// When anything does not fit, w is returned unchanged. The work is done on
// the run without the begin and end that wrap lock events under lock edges
// (one event a move); the result is in the documented form, wrapped.
func shrinkWitness(p *model.Program, w *model.Witness) *model.Witness {
	raw, err := model.UnwrapUnarySync(p, w)
	if err != nil {
		return w
	}
	return model.WrapUnarySync(shrinkRaw(p, raw))
}

// shrinkRaw is shrinkWitness on a witness whose moves emit one event each.
func shrinkRaw(p *model.Program, w *model.Witness) *model.Witness {
	k := len(p.Threads)
	idx := make([][]int, k) // per thread: the run indices of its events
	for i, st := range w.Run {
		idx[st.Thread] = append(idx[st.Thread], i)
	}
	onCycle := map[int]bool{}
	for _, c := range w.Cycle {
		onCycle[c.From], onCycle[c.To] = true, true
	}
	cut := make([]int, k) // per thread: how many of its events are kept
	for t := range idx {
		for j, i := range idx[t] {
			if onCycle[i] {
				cut[t] = j + 1
			}
		}
	}
	for {
		ok, grew := shrinkCheck(p, w.Run, idx, cut)
		if ok {
			break
		}
		if !grew {
			return w
		}
	}
	return shrinkBuild(p, w, idx, cut)
}

// shrinkCheck replays the kept events for lock, fork and join validity
// (and docs/spec.md §3's orderings). On the first fault it extends the
// cut that causes it and reports grew; ok when there is no fault.
func shrinkCheck(p *model.Program, run []model.Step, idx [][]int, cut []int) (ok, grew bool) {
	k := len(p.Threads)
	r := shrinkReplay{run: run, idx: idx, cut: cut, owner: make([]int, len(p.Locks))}
	for l := range r.owner {
		r.owner[l] = -1
	}
	pos := make([]int, k) // per thread: its events seen so far
	forked := make([]bool, k)
	forkedBy := p.ForkedBy()
	for i, st := range run {
		t := int(st.Thread)
		if pos[t] >= cut[t] {
			pos[t]++
			continue
		}
		pos[t]++
		if f := forkedBy[t]; f >= 0 && !forked[t] {
			return false, shrinkExtendTo(run, idx, cut, f, func(s model.Step) bool {
				return s.Ev.Op == model.OpFork && int(s.Ev.Target) == t
			})
		}
		switch ev := st.Ev; ev.Op {
		case model.OpAcquire, model.OpRelease:
			if !r.lock(t, ev) {
				return false, r.grew
			}
		case model.OpFork:
			forked[ev.Target] = true
		case model.OpJoin:
			if u := ev.Target; cut[u] < len(idx[u]) {
				cut[u] = len(idx[u])
				return false, true
			}
		default:
			if ev.Op.IsExtension() && !r.ordering(p, i, t, ev) {
				return false, r.grew
			}
		}
	}
	return true, false
}

// shrinkReplay is shrinkCheck's state of the locks and orderings of the
// kept events so far.
type shrinkReplay struct {
	run     []model.Step
	idx     [][]int
	cut     []int
	owner   []int   // per lock: its write holder, or -1
	readers [][]int // per lock: its read holders (§3)
	posted  []int   // per message: its kept posts
	tokens  []int   // per token: given and not yet taken
	posts   []int   // per message: the program's posts
	grew    bool    // a fault extended a cut
}

// lock replays a write acquire or release of thread t; on a fault (the
// lock held, or read-held) it extends a holder's cut to its release.
func (r *shrinkReplay) lock(t int, ev model.Event) bool {
	l := ev.Target
	if ev.Op == model.OpRelease {
		r.owner[l] = -1
		return true
	}
	h := r.owner[l]
	if h < 0 && r.readers != nil && len(r.readers[l]) > 0 {
		h = r.readers[l][0]
	}
	if h < 0 {
		r.owner[l] = t
		return true
	}
	r.grew = shrinkExtendTo(r.run, r.idx, r.cut, h, func(s model.Step) bool {
		return s.Ev.Target == l && (s.Ev.Op == model.OpRelease || s.Ev.Op == model.OpReadRelease)
	})
	return false
}

// ordering replays run event i, ev of thread t, an event of docs/spec.md
// §3's orderings. The run was valid, so what a kept event needs was done
// before it in the run by some thread whose cut left it out: on a fault
// that thread's cut is extended to it (a read acquire's write holder to
// its release, a wait's missing post, a take's give).
func (r *shrinkReplay) ordering(p *model.Program, i, t int, ev model.Event) bool {
	if r.readers == nil {
		r.readers, r.posted, r.tokens = make([][]int, len(p.Locks)), make([]int, len(p.Msgs)), make([]int, len(p.Msgs))
		r.posts = postsOf(p)
	}
	x := ev.Target
	switch ev.Op {
	case model.OpReadAcquire:
		if h := r.owner[x]; h >= 0 {
			r.grew = shrinkExtendTo(r.run, r.idx, r.cut, h, func(s model.Step) bool {
				return s.Ev.Op == model.OpRelease && s.Ev.Target == x
			})
			return false
		}
		r.readers[x] = append(r.readers[x], t)
	case model.OpReadRelease:
		r.readers[x] = slices.DeleteFunc(r.readers[x], func(u int) bool { return u == t })
	case model.OpPost:
		r.posted[x]++
	case model.OpGive:
		r.tokens[x]++
	case model.OpWait:
		return r.posted[x] == r.posts[x] || r.extendToEarlier(i, model.OpPost, x)
	case model.OpTake:
		if r.tokens[x] == 0 {
			return r.extendToEarlier(i, model.OpGive, x)
		}
		r.tokens[x]--
	}
	return true
}

// extendToEarlier extends the cut of the thread of the first event
// before run index i with op on target x that the cuts leave out, to that
// event; it reports false (a fault, grown or not) so that the replay
// starts again.
func (r *shrinkReplay) extendToEarlier(i int, op model.Op, x int32) bool {
	seen := make([]int, len(r.cut)) // per thread: its events before j
	for _, st := range r.run[:i] {
		u := int(st.Thread)
		if seen[u] >= r.cut[u] && st.Ev.Op == op && st.Ev.Target == x {
			r.cut[u] = seen[u] + 1
			r.grew = true
			return false
		}
		seen[u]++
	}
	return false
}

// shrinkExtendTo extends thread t's cut to its next event matching want;
// it reports whether there was one.
func shrinkExtendTo(run []model.Step, idx [][]int, cut []int, t int, want func(model.Step) bool) bool {
	for j := cut[t]; j < len(idx[t]); j++ {
		if want(run[idx[t][j]]) {
			cut[t] = j + 1
			return true
		}
	}
	return false
}

// shrinkBuild makes the witness of the kept events: the run, each thread's
// path up to the move of its last kept event, and the cycle of the exact
// conflict graph.
func shrinkBuild(p *model.Program, w *model.Witness, idx [][]int, cut []int) *model.Witness {
	k := len(p.Threads)
	out := &model.Witness{Paths: make([][]model.Move, k), LockEdges: w.LockEdges}
	for t := range k {
		if cut[t] == 0 {
			continue
		}
		events := 0
		for m, mv := range w.Paths[t] {
			if p.Threads[t].Auto.Out[mv.From][mv.Edge].Ev.Op != model.OpSkip {
				events++
			}
			if events == cut[t] {
				out.Paths[t] = append([]model.Move(nil), w.Paths[t][:m+1]...)
				break
			}
		}
	}
	keep := make([]bool, len(w.Run))
	for t := range k {
		for _, i := range idx[t][:cut[t]] {
			keep[i] = true
		}
	}
	g := graph.New(w.LockEdges)
	for i, st := range w.Run {
		if !keep[i] {
			continue
		}
		out.Run = append(out.Run, st)
		cyc, err := g.Step(st)
		if err != nil {
			return w
		}
		if cyc != nil {
			out.Cycle = cyc
			return shrinkTrim(p, out)
		}
	}
	return w
}

// shrinkTrim trims each path to the thread's events in w.Run (the run
// stops at the event that closed the cycle, which may precede kept events
// of other threads).
func shrinkTrim(p *model.Program, w *model.Witness) *model.Witness {
	count := make([]int, len(p.Threads))
	for _, st := range w.Run {
		count[st.Thread]++
	}
	for t := range w.Paths {
		events, keep := 0, 0
		for m, mv := range w.Paths[t] {
			if events == count[t] {
				break
			}
			if p.Threads[t].Auto.Out[mv.From][mv.Edge].Ev.Op != model.OpSkip {
				events++
			}
			keep = m + 1
		}
		w.Paths[t] = w.Paths[t][:keep]
	}
	return w
}
