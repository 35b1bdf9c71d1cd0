package verify

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Witness checks that w is a run of p whose conflict graph has the cycle
// w.Cycle. It returns nil for a valid witness and otherwise an error that
// says exactly what is wrong (which thread, move, run index or cycle pair).
func Witness(p *model.Program, w *model.Witness) error {
	if p == nil || w == nil {
		return fmt.Errorf("verify: missing program or witness")
	}
	c := &checker{p: p, w: w, forkedBy: p.ForkedBy(), posts: postsOf(p)}
	return c.run(c.paths, c.scan, c.replayAll, c.joins, c.cycle)
}

// postsOf counts each message's posts in p's automata: the ordering
// extension's programs are a trace's projections, straight lines, whose
// every edge is taken once on a run to its end.
func postsOf(p *model.Program) []int {
	posts := make([]int, len(p.Msgs))
	for _, th := range p.Threads {
		for _, out := range th.Auto.Out {
			for _, e := range out {
				if e.Ev.Op == model.OpPost && int(e.Ev.Target) < len(posts) && e.Ev.Target >= 0 {
					posts[e.Ev.Target]++
				}
			}
		}
	}
	return posts
}

// run runs the checks in order and returns the first error.
func (c *checker) run(checks ...func() error) error {
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// checker holds one verification; the replay fills final states.
type checker struct {
	p        *model.Program
	w        *model.Witness
	forkedBy []int         // per thread: the thread that forks it, or -1
	final    []threadEnd   // per thread: where its path ends
	events   []int         // per thread: its events in the run (the scan counts them)
	syncs    int           // the run's lock, fork and join events (the scan counts them)
	txn      map[int]txnID // the transaction of each cycle event (the scan finds them)
	joined   []joinAt      // the run's joins, in order (the scan lists them)
	posts    []int         // per message: the program's posts of it, which its waits follow
}

type threadEnd struct {
	state      int32
	emptyStack bool
	finished   bool // a terminal state with the empty stack
}

// describe names run event i for error messages.
func (c *checker) describe(i int) string {
	s := c.w.Run[i]
	name := c.p.Threads[s.Thread].Name
	if s.Ev.Op.HasTarget() {
		return fmt.Sprintf("event %d (%s %s %s)", i, name, s.Ev.Op, c.p.TargetName(s.Ev))
	}
	return fmt.Sprintf("event %d (%s %s)", i, name, s.Ev.Op)
}

// paths checks that the witness has a path for every thread.
func (c *checker) paths() error {
	if len(c.w.Paths) != len(c.p.Threads) {
		return fmt.Errorf("witness has %d paths for %d threads", len(c.w.Paths), len(c.p.Threads))
	}
	return nil
}

// event checks that run event i, s, names an existing thread and target.
func (c *checker) event(i int, s *model.Step) error {
	if s.Thread < 0 || int(s.Thread) >= len(c.p.Threads) {
		return fmt.Errorf("run event %d: no thread %d", i, s.Thread)
	}
	if s.Ev.Op == model.OpSkip || s.Ev.Op > model.OpTake {
		return fmt.Errorf("run event %d: %s is not an event", i, s.Ev.Op)
	}
	if s.Ev.Op.HasTarget() && !c.inRange(s.Ev) {
		return fmt.Errorf("run event %d: %s target %d out of range", i, s.Ev.Op, s.Ev.Target)
	}
	return nil
}

// evName names an automaton event, which need not be valid.
func (c *checker) evName(ev model.Event) string {
	switch {
	case !ev.Op.HasTarget():
		return ev.Op.String()
	case c.inRange(ev):
		return ev.Op.String() + " " + c.p.TargetName(ev)
	}
	return fmt.Sprintf("%s of bad target %d", ev.Op, ev.Target)
}

func (c *checker) inRange(ev model.Event) bool {
	n := len(c.p.Threads)
	switch ev.Op {
	case model.OpRead, model.OpWrite:
		n = len(c.p.Vars)
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		n = len(c.p.Locks)
	case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
		n = len(c.p.Msgs)
	}
	return ev.Target >= 0 && int(ev.Target) < n
}

// replayAll replays every thread's path against its automaton.
func (c *checker) replayAll() error {
	c.final = make([]threadEnd, len(c.p.Threads))
	for t := range c.p.Threads {
		if err := c.replay(t); err != nil {
			return err
		}
	}
	return nil
}

// threadEvents walks thread t's events of the run in order, without
// listing them: a run can have millions.
type threadEvents struct {
	run []model.Step
	t   int32
	at  int // the run index of the next event, len(run) past the last
}

func newThreadEvents(run []model.Step, t int) *threadEvents {
	p := &threadEvents{run: run, t: int32(t), at: -1}
	p.advance()
	return p
}

func (p *threadEvents) advance() {
	for p.at++; p.at < len(p.run) && p.run[p.at].Thread != p.t; p.at++ {
	}
}

func (p *threadEvents) done() bool { return p.at >= len(p.run) }

// replay walks thread t's path from Init with the empty stack; each move
// must be an existing edge of the current state, respect the stack, and its
// event (if any) must be the thread's next event of the run.
func (c *checker) replay(t int) error {
	th := c.p.Threads[t]
	a := th.Auto
	if a == nil || a.Init < 0 || int(a.Init) >= a.NumStates() {
		return fmt.Errorf("thread %s has no valid automaton", th.Name)
	}
	proj := newThreadEvents(c.w.Run, t)
	q, stack, k, depth := a.Init, []int32(nil), 0, 0
	for i, mv := range c.w.Paths[t] {
		if mv.From != q {
			return fmt.Errorf("thread %s move %d: starts at state %d, but the thread is in state %d", th.Name, i, mv.From, q)
		}
		if mv.Edge < 0 || int(mv.Edge) >= len(a.Out[q]) {
			return fmt.Errorf("thread %s move %d: state %d has no edge %d", th.Name, i, q, mv.Edge)
		}
		e := a.Out[q][mv.Edge]
		var err error
		if stack, err = stackMove(stack, e); err != nil {
			return fmt.Errorf("thread %s move %d: %v", th.Name, i, err)
		}
		if err := c.match(th.Name, i, e.Ev, depth, proj, &k); err != nil {
			return err
		}
		depth = txnDepth(depth, e.Ev.Op)
		if e.To < 0 || int(e.To) >= a.NumStates() {
			return fmt.Errorf("thread %s move %d: target state %d out of range", th.Name, i, e.To)
		}
		q = e.To
	}
	if !proj.done() {
		first, all := proj.at, k
		for ; !proj.done(); proj.advance() {
			all++
		}
		return fmt.Errorf("thread %s's path emits %d events, but the run has %d (first unmatched: %s)", th.Name, k, all, c.describe(first))
	}
	c.final[t] = threadEnd{state: q, emptyStack: len(stack) == 0, finished: a.Terminal(q) && len(stack) == 0}
	return nil
}

// match checks that what move i of thread name emits (its edge's event ev,
// at transaction depth depth) is the thread's next events of the run, and
// moves past them; k counts the thread's events matched so far.
func (c *checker) match(name string, i int, ev model.Event, depth int, proj *threadEvents, k *int) error {
	evs, n := c.emits(ev, depth)
	for _, want := range evs[:n] {
		if proj.done() {
			return fmt.Errorf("thread %s move %d emits %s, but the run has only %d events of %s", name, i, c.evName(want), *k, name)
		}
		if got := c.w.Run[proj.at].Ev; got.Op != want.Op || got.Target != want.Target {
			return fmt.Errorf("thread %s move %d emits %s%s, but the thread's next run event is %s",
				name, i, c.evName(want), c.unaryNote(ev, depth), c.describe(proj.at))
		}
		proj.advance()
		*k++
	}
	return nil
}

// stackMove applies an edge's stack operation: a pop needs its symbol on top.
func stackMove(stack []int32, e model.Edge) ([]int32, error) {
	switch e.Stack {
	case model.StackPush:
		return append(stack, e.Sym), nil
	case model.StackPop:
		if len(stack) == 0 {
			return nil, fmt.Errorf("pops %d from the empty stack", e.Sym)
		}
		if top := stack[len(stack)-1]; top != e.Sym {
			return nil, fmt.Errorf("pops %d, but %d is on top of the stack", e.Sym, top)
		}
		return stack[:len(stack)-1], nil
	}
	return stack, nil
}
