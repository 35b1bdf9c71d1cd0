package global

import (
	"context"
	"fmt"
	"slices"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/fsm"
)

// searcher is the explicit-state depth-first search of the product of
// Theorem 4. Stored states are hashed by their canonical key; the DFS stack
// holds whole states (cheap: a few dozen words), so nothing is undone.
type searcher struct {
	ctx       context.Context
	done      <-chan struct{} // ctx.Done(), polled at every stored state
	p         *model.Program
	cfg       config
	lockEdges bool
	k         int
	maxStack  int
	maxStates int64
	mem       *budget.Meter
	forkedBy  []int
	pushdown  []bool
	fsm       *fsm.FSM
	edges     [][][]*edgeFacts // per thread, state, edge: precomputed facts
	fa        *alphabet
	fut       []futureTable // per thread (threads of one automaton share it)
	chainCap  int
	runs      [][]silentRun // per thread, state: the run of silent moves from it
	dead      [][]bool      // per thread, state: its transaction's reach is dead (compact only)

	nLocks int
	ord    orderLayout // docs/spec.md §3's orderings' words (orderings.go)
	monOff int         // where the monitor's words start in a conf

	active  []bool
	visited *visitedSet
	stack   []frame
	found   []step
	keyBuf  []byte
	viaBuf  []step // the moves to a child, kept only if it is stored
	scratch conf

	states, events int64
	steps          int64         // local moves taken by chains (not stored)
	cutStack       bool          // a push was refused by --max-stack
	stopped        string        // why the search gave up, if it did
	limit          engines.Limit // the limit stopped names

	por porScratch
}

// frame is one state on the DFS stack: the moves chosen to explore from it
// (a persistent set, or all enabled ones when full), and the moves (one,
// plus any chained local ones) that led to it from its parent.
type frame struct {
	conf  conf
	key   int // offset of its key in the visited arena
	keyN  int
	moves []move
	next  int
	full  bool
	via   []step
}

func newSearcher(ctx context.Context, p *model.Program, opts engines.Options, cfg config) *searcher {
	k := len(p.Threads)
	s := &searcher{
		ctx: ctx, done: ctx.Done(), p: p, cfg: cfg, lockEdges: opts.LockEdges, k: k,
		maxStack: opts.MaxStack, maxStates: int64(opts.MaxStates), forkedBy: p.ForkedBy(),
		mem:    budget.New(opts.MaxMemory),
		nLocks: len(p.Locks), monOff: 2*k + len(p.Locks),
	}
	if s.maxStack <= 0 {
		s.maxStack = MaxStack
	}
	s.ord = newOrderLayout(p, s.monOff)
	s.monOff += s.ord.words
	sharedVars, sharedLocks := sharedTargets(p)
	ac := fsm.AlphabetConfig{Threads: k, Vars: len(p.Vars), Locks: len(p.Locks), LockEdges: opts.LockEdges}
	if cfg.compact {
		ac.SharedVars, ac.SharedLocks = sharedVars, sharedLocks
	}
	s.fsm = fsm.New(fsm.NewAlphabet(ac))
	s.fa = newAlphabet(p, sharedVars, sharedLocks)
	if need := s.tableBytes(); !s.mem.Fits(need) {
		s.stop(engines.MemoryBudget, s.mem.TooLarge(fmt.Sprintf("the global engine's tables for %s automaton states",
			budget.Count(threadStates(p))), need))
		return s
	}
	tables := map[*model.Automaton]futureTable{}
	s.chainCap = 1
	for t, th := range p.Threads {
		a := th.Auto
		if tables[a] == nil {
			tables[a] = newFutureTable(s.fa, a)
		}
		s.fut = append(s.fut, tables[a])
		s.pushdown = append(s.pushdown, a.Pushdown())
		s.edges = append(s.edges, s.threadEdges(t, a))
		s.chainCap += a.NumStates()
	}
	for t := range p.Threads {
		if cfg.local {
			s.runs = append(s.runs, s.silentRuns(t))
		}
		if cfg.compact {
			s.dead = append(s.dead, s.deadRows(t))
		}
	}
	s.por.init(k, len(p.Locks))
	return s
}

// sharedTargets reports the variables and locks that two or more threads use;
// the others cannot make two threads interfere.
func sharedTargets(p *model.Program) (vars, locks []bool) {
	vUser, lUser := make([]int, len(p.Vars)), make([]int, len(p.Locks))
	for i := range vUser {
		vUser[i] = -1
	}
	for i := range lUser {
		lUser[i] = -1
	}
	vars, locks = make([]bool, len(p.Vars)), make([]bool, len(p.Locks))
	note := func(user []int, shared []bool, x int32, t int) {
		switch user[x] {
		case -1:
			user[x] = t
		case t:
		default:
			shared[x] = true
		}
	}
	for t, th := range p.Threads {
		for _, es := range th.Auto.Out {
			for _, e := range es {
				switch {
				case e.Ev.Op.IsAccess():
					note(vUser, vars, e.Ev.Target, t)
				case isLockOp(e.Ev.Op):
					note(lUser, locks, e.Ev.Target, t)
				}
			}
		}
	}
	return vars, locks
}

// isLockOp reports an event of a lock: a write or (docs/spec.md §3) read
// acquire or release.
func isLockOp(op model.Op) bool {
	switch op {
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		return true
	}
	return false
}

// search explores the product with only the active threads moving. A run
// of the active threads alone is a run of the program (the others stop
// before their first event), so a violation found here is one of the
// program's. It reports whether it found one (then s.found is its path).
func (s *searcher) search(active []bool) bool {
	s.active, s.visited, s.stack = active, newVisitedSet(), s.stack[:0]
	root := s.initial()
	var via []step
	if s.chain(&root, &via) {
		s.found = via
		return true
	}
	if s.stopped != "" { // a chain hit a limit
		return false
	}
	s.forgetDead(&root)
	s.keyBuf = s.appendKey(s.keyBuf[:0], &root)
	sl, _ := s.visited.lookup(s.keyBuf)
	if !s.push(root, via, sl) {
		return false
	}
	for len(s.stack) > 0 {
		top := &s.stack[len(s.stack)-1]
		if top.next == len(top.moves) {
			s.visited.setMark(s.visited.arena[top.key:top.key+top.keyN], -1)
			s.stack = s.stack[:len(s.stack)-1]
			continue
		}
		mv := top.moves[top.next]
		top.next++
		child := &s.scratch
		child.copyFrom(&top.conf)
		// Most children are seen already: their moves go to a reused
		// buffer, copied (at their length) only when the child is stored.
		via := append(s.viaBuf[:0], step{mv.t, s.q(child, int(mv.t)), mv.e})
		closed := s.apply(child, mv) || s.chain(child, &via)
		s.viaBuf = via
		if closed {
			s.found = s.pathTo(via)
			return true
		}
		if s.stopped != "" { // a chain hit a limit
			return false
		}
		s.forgetDead(child)
		s.keyBuf = s.appendKey(s.keyBuf[:0], child)
		sl, seen := s.visited.lookup(s.keyBuf)
		if seen {
			if sl.mark >= 0 && !top.full {
				s.expandFully(top) // the cycle proviso: this move closes a cycle of the DFS
			}
			continue
		}
		if !s.push(child.clone(), slices.Clone(via), sl) {
			return false
		}
	}
	return false
}

// push stores the state whose key is in s.keyBuf (sl is its empty slot)
// and puts it on the DFS stack with the moves to explore from it; it
// returns false when a limit stops the search.
func (s *searcher) push(c conf, via []step, sl *slot) bool {
	s.states++
	if s.maxStates > 0 && s.states > s.maxStates {
		s.stop(engines.StateBudget, fmt.Sprintf("no violation within --max-states %d states", s.maxStates))
		return false
	}
	if s.expired() {
		s.stop(engines.Deadline, timeoutReason)
		return false
	}
	if s.states%checkEvery == 1 && s.mem.Over() {
		s.stop(engines.MemoryBudget, s.mem.Reached(s.states))
		return false
	}
	off := len(s.visited.arena)
	s.visited.insert(sl, s.keyBuf, int32(len(s.stack)))
	moves, full := s.expand(&c)
	s.stack = append(s.stack, frame{conf: c, key: off, keyN: len(s.keyBuf), moves: moves, full: full, via: via})
	return true
}

// expand chooses the moves to explore from c: a persistent set when
// partial-order reduction is on, else every enabled move.
func (s *searcher) expand(c *conf) (moves []move, full bool) {
	all := s.enabledMoves(c, nil)
	if !s.cfg.por || len(all) <= 1 {
		return all, true
	}
	set := s.persistentSet(c)
	return set, len(set) == len(all)
}

// expandFully adds the enabled moves of f that its persistent set left out.
func (s *searcher) expandFully(f *frame) {
	for _, mv := range s.enabledMoves(&f.conf, nil) {
		if !containsMove(f.moves, mv) {
			f.moves = append(f.moves, mv)
		}
	}
	f.full = true
}

func containsMove(ms []move, mv move) bool {
	for _, m := range ms {
		if m == mv {
			return true
		}
	}
	return false
}

// chain takes local moves from c while there are any (see localMove),
// without storing the states in between: each is the only move of a
// singleton persistent set, so no interleaving point is lost. The chain is
// capped, so a loop of local moves ends in a stored state (where the cycle
// proviso applies). It reports whether a move closed a cycle.
func (s *searcher) chain(c *conf, via *[]step) bool {
	if !s.cfg.local {
		return false
	}
	prefer := -1
	if len(*via) > 0 {
		prefer = int((*via)[len(*via)-1].t)
	}
	for range s.chainCap {
		if s.steps++; s.steps%checkEvery == 0 && s.chainLimit() {
			return false
		}
		if prefer >= 0 && s.jump(c, prefer, via) {
			continue
		}
		mv, ok := s.localMove(c, prefer)
		if !ok {
			return false
		}
		*via = append(*via, step{mv.t, s.q(c, int(mv.t)), mv.e})
		if s.apply(c, mv) {
			return true
		}
		prefer = int(mv.t)
	}
	return false
}

// expired reports whether the deadline has passed. It is polled at every
// stored state, not every checkEvery: a state's expansion (the
// persistent set's closure) can take milliseconds on programs of many
// threads, and a thousand of them would overrun --timeout by seconds. A
// non-blocking receive costs nanoseconds.
func (s *searcher) expired() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// timeoutReason is the search's reason when its context ended (the
// CLI words the deadline and the memory watch its own way: engines.Settle).
const timeoutReason = "no violation before the timeout"

// stop records that the limit l ended the search, for the reason why.
func (s *searcher) stop(l engines.Limit, why string) { s.limit, s.stopped = l, why }

// chainLimit reports (and records) a limit reached inside a chain: a chain
// may run for millions of moves between stored states (a long trace's
// projection), so the deadline and the state budget are checked here too
// (and, more rarely, the memory budget: chained states are not stored);
// --max-states N also bounds the chained moves, to stepsPerState·N.
func (s *searcher) chainLimit() bool {
	switch {
	case s.ctx.Err() != nil:
		s.stop(engines.Deadline, timeoutReason)
	case s.maxStates > 0 && s.steps > stepsPerState*s.maxStates:
		s.stop(engines.StateBudget, fmt.Sprintf("no violation within --max-states %d states (%d chained local moves)",
			s.maxStates, stepsPerState*s.maxStates))
	case s.steps%(16*checkEvery) == 0 && s.mem.Over():
		s.stop(engines.MemoryBudget, s.mem.Reached(s.states))
	}
	return s.stopped != ""
}

// jump takes thread t's run of silent moves from c, if it has one; the
// witness path records it as one step with a negative edge (-n).
func (s *searcher) jump(c *conf, t int, via *[]step) bool {
	q := s.q(c, t)
	r := s.runs[t][q]
	if r.n == 0 || !s.active[t] || !s.started(c, t) {
		return false
	}
	*via = append(*via, step{int32(t), q, -r.n})
	c.w[t] = uint64(r.to)
	s.events += int64(r.n)
	return true
}

// pathTo is the moves from the initial state to the state reached by via
// from the top of the stack.
func (s *searcher) pathTo(via []step) []step {
	var path []step
	for _, f := range s.stack {
		path = append(path, f.via...)
	}
	return append(path, via...)
}

// subsetOrder lists the sets of threads to search, smallest first (a
// violation among some threads is one of the program): pairs that could
// conflict at all, then triples for up to six threads, then all threads.
func (s *searcher) subsetOrder() [][]bool {
	all := make([]bool, s.k)
	for t := range all {
		all[t] = true
	}
	if !s.cfg.subsets || s.k <= 2 || s.k > 16 {
		return [][]bool{all} // past 16 threads, 120+ pair searches cost more than they save
	}
	var out [][]bool
	for i := 0; i < s.k; i++ {
		for j := i + 1; j < s.k; j++ {
			if s.mayConflict(i, j) {
				out = append(out, subset(s.k, i, j))
			}
		}
	}
	if s.k > 3 && s.k <= 6 {
		for i := 0; i < s.k; i++ {
			for j := i + 1; j < s.k; j++ {
				for h := j + 1; h < s.k; h++ {
					out = append(out, subset(s.k, i, j, h))
				}
			}
		}
	}
	return append(out, all)
}

func subset(k int, ts ...int) []bool {
	b := make([]bool, k)
	for _, t := range ts {
		b[t] = true
	}
	return b
}
