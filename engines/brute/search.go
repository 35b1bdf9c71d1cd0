package brute

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/graph"
)

// searcher is one depth-first exploration. The configuration (thread
// states, stacks, lock owners, forks, the run and the paths) is mutated in
// place and restored on backtracking; the conflict graph, which is cheap to
// copy and awkward to undo, is cloned at each event.
type searcher struct {
	ctx      context.Context
	p        *model.Program
	lockEdge bool
	maxDepth int
	maxStack int
	maxState int64
	mem      *budget.Meter
	forkedBy []int
	// readShared[t][x]: another thread writes x; writeShared[t][x]: another
	// thread reads or writes x. Accesses that are not shared are invisible.
	readShared, writeShared [][]bool

	q       []int32   // per thread: automaton state
	stacks  [][]int32 // per thread: pushdown stack, top last
	depth   []int     // per thread: events made
	owner   []int32   // per lock: holder or -1
	started []bool    // per thread: may move (not forked, or forked already)
	ord     orderings // docs/spec.md §3's: read holders, posts, tokens
	run     []model.Step
	paths   [][]model.Move

	// seen maps a configuration's key (everything but the per-thread event
	// counts) to its explorations, each with its event counts: a revisit with
	// no smaller count has no budget an earlier visit lacked (subsumption).
	seen   map[string][]*visitEntry
	keyBuf []byte
	// cutTo holds the keys of the configurations that moves refused by
	// --max-depth would have led to ("" for a move that closes a cycle).
	cutTo map[string]struct{}

	states, events int64
	cutDepth       bool          // a --max-depth cut matters (set after the search)
	cutStack       bool          // --max-stack refused a push
	stopped        string        // why the search gave up, if it did
	limit          engines.Limit // the limit stopped names (NoLimit: an internal error)
	witness        *model.Witness
}

func newSearcher(ctx context.Context, p *model.Program, opts engines.Options) *searcher {
	k := len(p.Threads)
	s := &searcher{
		ctx: ctx, p: p, lockEdge: opts.LockEdges,
		maxDepth: opts.MaxDepth, maxStack: opts.MaxStack, maxState: int64(opts.MaxStates),
		mem:      budget.New(opts.MaxMemory),
		forkedBy: p.ForkedBy(),
		q:        make([]int32, k), stacks: make([][]int32, k), depth: make([]int, k),
		owner: make([]int32, len(p.Locks)), started: make([]bool, k),
		paths: make([][]model.Move, k), seen: map[string][]*visitEntry{}, cutTo: map[string]struct{}{},
	}
	if s.maxDepth <= 0 {
		s.maxDepth = defaultDepth(p)
	}
	if s.maxStack <= 0 {
		s.maxStack = MaxStack
	}
	for t, th := range p.Threads {
		s.q[t] = th.Auto.Init
		s.started[t] = s.forkedBy[t] < 0
	}
	for l := range s.owner {
		s.owner[l] = -1
	}
	s.readShared, s.writeShared = sharing(p)
	s.ord = newOrderings(p)
	return s
}

// defaultDepth is the event bound when the user sets none: none at all
// for a program without loops or recursion, whose runs are finitely many and
// short, so that brute's answer there is exact; MaxDepth otherwise.
func defaultDepth(p *model.Program) int {
	if p.LoopFree() {
		return math.MaxInt
	}
	return MaxDepth
}

// sharing computes which accesses of each thread another thread can
// conflict with, from the edges of the automata.
func sharing(p *model.Program) (readShared, writeShared [][]bool) {
	k, v := len(p.Threads), len(p.Vars)
	reads, writes := make([][]bool, k), make([][]bool, k)
	for t, th := range p.Threads {
		reads[t], writes[t] = make([]bool, v), make([]bool, v)
		for _, es := range th.Auto.Out {
			for _, e := range es {
				switch e.Ev.Op {
				case model.OpRead:
					reads[t][e.Ev.Target] = true
				case model.OpWrite:
					writes[t][e.Ev.Target] = true
				}
			}
		}
	}
	readShared, writeShared = make([][]bool, k), make([][]bool, k)
	for t := range p.Threads {
		readShared[t], writeShared[t] = make([]bool, v), make([]bool, v)
		for u := range p.Threads {
			for x := 0; x < v; x++ {
				if u != t {
					readShared[t][x] = readShared[t][x] || writes[u][x]
					writeShared[t][x] = writeShared[t][x] || writes[u][x] || reads[u][x]
				}
			}
		}
	}
	return readShared, writeShared
}

// search explores from the initial configuration; it reports a violation.
func (s *searcher) search() bool {
	found, _ := s.explore(graph.New(s.lockEdge))
	return found
}

// threadMove is a move of one thread along one edge of its automaton.
type threadMove struct {
	t    int
	edge int
}

// visitEntry is what seen remembers of a configuration: the event counts it
// was explored with, and whether that exploration is still on the DFS stack.
type visitEntry struct {
	depth   []int32
	onStack bool
}

// explore is the depth-first search from the current configuration with
// conflict graph g. It returns whether a violation was found, and whether
// the configuration was pruned because a configuration still on the DFS
// stack covers it (a cycle of the state space).
//
// Invariant: g is the conflict graph of s.run, which is acyclic, and every
// configuration in s.seen has been, or is being, explored with at least the
// event budget recorded there.
func (s *searcher) explore(g *graph.Graph) (found, onStack bool) {
	if s.stopped != "" {
		return false, false
	}
	entry, fresh := s.visit(g)
	if !fresh {
		return false, entry != nil && entry.onStack
	}
	entry.onStack = true
	defer func() { entry.onStack = false }()
	if moves, ok := s.invisibleMoves(); ok {
		// Partial-order reduction (see invisibleMoves). If a successor was
		// pruned by a configuration on the stack, the reduction might go
		// round a cycle of the state space forever ignoring the other
		// threads (the ignoring problem), so then expand fully as well.
		found, cycled := s.tryAll(g, moves)
		if found || !cycled {
			return found, false
		}
	}
	moves, cuts := s.enabled()
	s.noteCuts(g, cuts)
	found, _ = s.tryAll(g, moves)
	return found, false
}

// tryAll takes each move in turn, exploring after it and undoing it.
func (s *searcher) tryAll(g *graph.Graph, moves []threadMove) (found, cycled bool) {
	for _, m := range moves {
		found, onStack := s.try(g, m)
		if found {
			return true, false
		}
		cycled = cycled || onStack
	}
	return false, cycled
}

// try makes move m, explores, and undoes m.
func (s *searcher) try(g *graph.Graph, m threadMove) (found, onStack bool) {
	e := s.p.Threads[m.t].Auto.Out[s.q[m.t]][m.edge]
	u := s.apply(m, e)
	defer s.undo(m, e, u)
	if e.Ev.Op == model.OpSkip {
		return s.explore(g)
	}
	s.events++
	g2 := g.Clone()
	cyc, err := g2.Step(model.Step{Thread: int32(m.t), Ev: e.Ev})
	if err != nil { // unreachable: the program was validated
		s.stopped = fmt.Sprintf("internal error: %v", err)
		return false, false
	}
	if cyc != nil {
		s.witness = s.makeWitness(cyc)
		return true, false
	}
	return s.explore(g2)
}

// visit records a new configuration and returns its entry with fresh set, or returns the entry of an earlier visit that subsumes it. It
// also enforces --max-states and the deadline (then: nil, false).
func (s *searcher) visit(g *graph.Graph) (*visitEntry, bool) {
	kb := s.appendKey(g)
	for _, old := range s.seen[string(kb)] {
		if s.covers(old) {
			return old, false
		}
	}
	s.states++
	if s.maxState > 0 && s.states > s.maxState {
		s.stopped, s.limit = fmt.Sprintf("no violation within --max-states %d states", s.maxState), engines.StateBudget
		return nil, false
	}
	if s.states%checkEvery == 1 && s.ctx.Err() != nil {
		s.stopped, s.limit = "no violation before the timeout", engines.Deadline
		return nil, false
	}
	if s.states%checkEvery == 1 && s.mem.Over() {
		s.stopped, s.limit = s.mem.Reached(s.states), engines.MemoryBudget
		return nil, false
	}
	e := &visitEntry{depth: make([]int32, len(s.depth))}
	for t, d := range s.depth {
		e.depth[t] = int32(d)
	}
	key := string(kb)
	s.seen[key] = append(s.seen[key], e)
	return e, true
}

// covers reports whether an earlier visit had at least the current event
// budget: it had made no more events than now in every thread.
func (s *searcher) covers(old *visitEntry) bool {
	for t, d := range s.depth {
		if int(old.depth[t]) > d {
			return false
		}
	}
	return true
}

// noteCuts records where the moves refused by --max-depth lead.
func (s *searcher) noteCuts(g *graph.Graph, cuts []threadMove) {
	for _, m := range cuts {
		e := s.p.Threads[m.t].Auto.Out[s.q[m.t]][m.edge]
		u := s.apply(m, e)
		g2 := g.Clone()
		if cyc, _ := g2.Step(model.Step{Thread: int32(m.t), Ev: e.Ev}); cyc != nil {
			s.cutTo[""] = struct{}{}
		} else {
			s.cutTo[string(s.appendKey(g2))] = struct{}{}
		}
		s.undo(m, e, u)
	}
}

// depthCutMatters reports whether a move refused by --max-depth leads to a
// configuration the search never explored. Configurations with equal keys
// have equal futures, so the explored keys, closed under every move (taken,
// subsumed, or cut into an explored key), cover every run of the program of
// any length: a search with no cut that matters (and no stack cut, no stop)
// is complete, loops included.
func (s *searcher) depthCutMatters() bool {
	for key := range s.cutTo {
		if key == "" || len(s.seen[key]) == 0 {
			return true
		}
	}
	return false
}

// appendKey encodes the configuration without event counts: thread states
// and stacks, lock owners, fork status, and the conflict graph's key.
func (s *searcher) appendKey(g *graph.Graph) []byte {
	b := s.keyBuf[:0]
	for t, q := range s.q {
		b = binary.AppendUvarint(b, uint64(q))
		b = binary.AppendUvarint(b, uint64(len(s.stacks[t])))
		for _, sym := range s.stacks[t] {
			b = binary.AppendUvarint(b, uint64(sym))
		}
		b = append(b, flagByte(s.started[t]))
	}
	for _, o := range s.owner {
		b = binary.AppendUvarint(b, uint64(o+1))
	}
	b = s.ord.appendKey(b)
	b = g.AppendKey(b)
	s.keyBuf = b
	return b
}

func flagByte(f bool) byte {
	if f {
		return 1
	}
	return 0
}
