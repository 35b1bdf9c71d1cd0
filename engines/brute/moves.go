package brute

import (
	"slices"

	"github.com/conc-dev/conc/model"
)

// enabled lists every move allowed in the current configuration (docs/spec.md §1):
// a thread moves only once forked; pops need their symbol on top; acquire
// needs a free lock, release the holder; fork U only once; join U only when U
// is terminal with an empty stack. It also lists the moves refused only by
// --max-depth (cuts).
func (s *searcher) enabled() (moves, cuts []threadMove) {
	for t := range s.q {
		if !s.started[t] {
			continue
		}
		for k, e := range s.p.Threads[t].Auto.Out[s.q[t]] {
			switch s.check(t, e) {
			case moveOK:
				moves = append(moves, threadMove{t: t, edge: k})
			case moveCutDepth:
				cuts = append(cuts, threadMove{t: t, edge: k})
			}
		}
	}
	return moves, cuts
}

// invisibleMoves finds a thread t all of whose edges are invisible to the
// other threads and within the depth bound, and returns t's enabled moves: a
// persistent set (partial-order reduction). Invisible are epsilon moves,
// begin and end, and accesses no other thread conflicts with: they touch no
// lock, conflict with no event of another thread, and no other thread's move
// enables or disables them (join t waits for t to finish, and t, having
// edges, has not).
//
// Why no violation is lost: let a run from here close a cycle. If t moves in
// it, its first move b is one of these and commutes with every earlier move,
// so moving b first gives an equivalent run with the same conflict graph.
// If t does not move, b followed by the run is a run too, whose conflict
// graph only adds b, so it still has the cycle. A thread with a move cut by
// the depth bound is not used: the cut must be seen by depthCutMatters.
func (s *searcher) invisibleMoves() ([]threadMove, bool) {
	for t := range s.q {
		out := s.p.Threads[t].Auto.Out[s.q[t]]
		if !s.started[t] || len(out) == 0 || !s.allInvisible(t, out) {
			continue
		}
		var moves []threadMove
		cut := false
		for k, e := range out {
			switch s.check(t, e) {
			case moveOK:
				moves = append(moves, threadMove{t: t, edge: k})
			case moveCutDepth:
				cut = true
			}
		}
		if len(moves) > 0 && !cut {
			return moves, true
		}
	}
	return nil, false
}

func (s *searcher) allInvisible(t int, out []model.Edge) bool {
	for _, e := range out {
		switch e.Ev.Op {
		case model.OpSkip, model.OpBegin, model.OpEnd:
		case model.OpRead:
			if s.readShared[t][e.Ev.Target] {
				return false
			}
		case model.OpWrite:
			if s.writeShared[t][e.Ev.Target] {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// moveCheck says whether a move may be taken now, and if not, why.
type moveCheck uint8

const (
	moveOK       moveCheck = iota
	moveDisabled           // by the semantics: locks, forks, joins, the stack top
	moveCutDepth           // by --max-depth only
	moveCutStack           // by --max-stack
)

// check decides whether thread t may take edge e now.
func (s *searcher) check(t int, e model.Edge) moveCheck {
	st := s.stacks[t]
	switch e.Stack {
	case model.StackPush:
		if len(st) >= s.maxStack {
			s.cutStack = true
			return moveCutStack
		}
	case model.StackPop:
		if len(st) == 0 || st[len(st)-1] != e.Sym {
			return moveDisabled
		}
	}
	switch {
	case e.Ev.Op == model.OpSkip:
		return moveOK
	case !s.syncAllowed(t, e.Ev):
		return moveDisabled
	case s.depth[t] >= s.maxDepth:
		return moveCutDepth
	}
	return moveOK
}

// syncAllowed checks lock validity and fork/join order for one event.
func (s *searcher) syncAllowed(t int, ev model.Event) bool {
	switch ev.Op {
	case model.OpAcquire:
		return s.owner[ev.Target] < 0 && s.ord.free(ev.Target)
	case model.OpRelease:
		return s.owner[ev.Target] == int32(t)
	case model.OpReadAcquire:
		return s.owner[ev.Target] < 0
	case model.OpFork:
		return !s.started[ev.Target]
	case model.OpJoin:
		u := ev.Target
		return int(u) != t && s.started[u] &&
			s.p.Threads[u].Auto.Terminal(s.q[u]) && len(s.stacks[u]) == 0
	}
	return s.ord.allows(ev)
}

// undoInfo is what undoing a move needs.
type undoInfo struct {
	q     int32
	stack []int32
}

// apply makes move m along edge e; undo(m, e, u) reverts it.
func (s *searcher) apply(m threadMove, e model.Edge) undoInfo {
	t := m.t
	u := undoInfo{q: s.q[t], stack: s.stacks[t]}
	s.q[t] = e.To
	switch e.Stack {
	case model.StackPush:
		s.stacks[t] = append(slices.Clip(u.stack), e.Sym)
	case model.StackPop:
		s.stacks[t] = u.stack[:len(u.stack)-1]
	}
	s.paths[t] = append(s.paths[t], model.Move{From: u.q, Edge: int32(m.edge)})
	if e.Ev.Op != model.OpSkip {
		s.depth[t]++
		s.run = append(s.run, model.Step{Thread: int32(t), Ev: e.Ev})
		s.applySync(t, e.Ev, true)
	}
	return u
}

func (s *searcher) undo(m threadMove, e model.Edge, u undoInfo) {
	t := m.t
	if e.Ev.Op != model.OpSkip {
		s.applySync(t, e.Ev, false)
		s.run = s.run[:len(s.run)-1]
		s.depth[t]--
	}
	s.paths[t] = s.paths[t][:len(s.paths[t])-1]
	s.q[t], s.stacks[t] = u.q, u.stack
}

// applySync does (do) or undoes (!do) an event's effect on locks and forks.
func (s *searcher) applySync(t int, ev model.Event, do bool) {
	switch ev.Op {
	case model.OpAcquire:
		s.owner[ev.Target] = int32(t)
		if !do {
			s.owner[ev.Target] = -1
		}
	case model.OpRelease:
		s.owner[ev.Target] = -1
		if !do {
			s.owner[ev.Target] = int32(t)
		}
	case model.OpFork:
		s.started[ev.Target] = do
	default:
		s.ord.apply(ev, do)
	}
}

// makeWitness copies the current run and paths into a witness for cycle
// cyc, in the documented form (lock events outside transactions wrapped
// under lock edges).
func (s *searcher) makeWitness(cyc []model.Conflict) *model.Witness {
	w := &model.Witness{Run: slices.Clone(s.run), Cycle: cyc, LockEdges: s.lockEdge}
	w.Paths = make([][]model.Move, len(s.paths))
	for t, p := range s.paths {
		w.Paths[t] = slices.Clone(p)
	}
	return model.WrapUnarySync(w)
}
