package predict

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// The prefilter with fork order (docs/predict.md, "The prefilter with fork
// order"). Dropping locks and joins only adds runs and, without lock edges,
// changes no conflict; forks are kept as the one order they impose: no event
// of thread u happens before u's fork. If u's fork happens after the edge q
// of thread i in program order and fork order alone (the fork's clock has
// more than q edges of i), every event of u comes after i's edge q in every
// run. A chain of Lemma 3 that closes on b (i's edge q) has all its events
// between a and b, so it uses no such thread: at b the chain search runs
// over the threads outside E(b), the threads whose fork comes after b. In
// the other direction, the events that happen before i's own fork precede
// all of i, so before a: the other threads' summaries count only their
// events after i's fork's clock (summaryFrom). That is the lock-free check
// of what is left (the threads of E(b) are left empty). E(b) only shrinks
// as b moves on in its thread, so each thread's open transaction refolds
// its F's at most once per fork it passes. No violation here means none
// with the synchronisation; a violation here concludes nothing. With lock
// edges the synchronisation's conflicts are kept as letters (lockLetters).

// forkScanThreads bounds the threads: E is a word, and the chain search is
// the exhaustive one (2^k·k states at most).
const forkScanThreads = 12

// forkClocks are, per forked thread, the clock (in edges, program order and
// fork only) of its fork.
func forkClocks(s *proj.Summary, sp *proj.Spool) ([][]int64, error) {
	k := len(s.Threads)
	vc, clk := make([][]int64, k), make([][]int64, k)
	for t := range vc {
		vc[t] = make([]int64, k)
	}
	open := make([]bool, k)
	r := sp.Reader()
	var ev trace.Event
	for {
		if err := r.Next(&ev); err == io.EOF {
			return clk, nil
		} else if err != nil {
			return nil, err
		}
		t := ev.Thread
		switch ev.Op {
		case model.OpBegin:
			open[t] = true
		case model.OpEnd:
			open[t] = false
		}
		vc[t][t] += proj.EdgesOf(&ev, open[t])
		if ev.Op == model.OpFork {
			joinVC(vc[ev.Target], vc[t])
			clk[ev.Target] = append([]int64(nil), vc[t]...)
		}
	}
}

// forkScan is the scan's state: a chainer per set of excluded threads.
type forkScan struct {
	s        *proj.Summary
	p        *predictor
	clk      [][]int64
	chainers map[[2]uint64]*chain.Chainer
	from     [][]*proj.ThreadSum // per forked thread i: the others' summaries after i's fork
	lx       *lockLetters        // with lock edges: the synchronisation's letters
	base     []*proj.ThreadSum   // with lock edges: the summaries with them
}

// excluded is E at thread i's edge q: the threads whose fork comes after it.
func (fs *forkScan) excluded(i int, q int64) uint64 {
	var e uint64
	for u, c := range fs.clk {
		if c != nil && c[i] > q {
			e |= 1 << u
		}
	}
	return e
}

// chainer is the lock-free check for thread i's transactions over the
// threads outside e, each with only its events that need not precede i's
// start: those that happen before i's fork (the forker's events before it,
// transitively) precede every event of i, so no chain through i uses them.
func (fs *forkScan) chainer(i int, e uint64) (*chain.Chainer, error) {
	key := [2]uint64{uint64(i), e}
	if c, ok := fs.chainers[key]; ok {
		return c, nil
	}
	th := fs.s.Threads
	if fs.base != nil {
		th = fs.base
	}
	if fs.clk[i] != nil {
		if fs.from[i] == nil {
			from, err := summaryFrom(fs.s, fs.p.sp, fs.clk[i], fs.lx)
			if err != nil {
				return nil, err
			}
			fs.from[i] = from
		}
		th = fs.from[i]
	}
	th = append([]*proj.ThreadSum(nil), th...)
	for u := range th {
		if e&(1<<u) != 0 {
			th[u] = &proj.ThreadSum{}
		}
	}
	c := chain.New(fs.p.ctx, &proj.Summary{Threads: th}, fs.p.o.Check.MaxStates)
	if fs.p.defaultBudget() {
		c.Limit = fs.p.chainBudget()
	}
	fs.chainers[key] = c
	return c, nil
}

// summaryFrom is the first pass's letter summary of every thread t counting
// only its edges from from[t] on (transactions numbered as in the whole);
// with lx, over its letters, and a lock, fork or join event outside a
// transaction is one of its own (docs/spec.md §1).
func summaryFrom(s *proj.Summary, sp *proj.Spool, from []int64, lx *lockLetters) ([]*proj.ThreadSum, error) {
	th := make([]*proj.ThreadSum, len(s.Threads))
	for t := range th {
		th[t] = &proj.ThreadSum{}
	}
	edges := make([]int64, len(th))
	var ls []profiles.Letter
	r := sp.Reader()
	var ev trace.Event
	for {
		if err := r.Next(&ev); err == io.EOF {
			return th, nil
		} else if err != nil {
			return nil, err
		}
		t, x := ev.Thread, th[ev.Thread]
		at := edges[t]
		switch {
		case ev.Op == model.OpBegin:
			x.Txn++
			x.Open = true
		case ev.Op == model.OpEnd:
			x.Open = false
		case ev.Op.IsAccess() || lx != nil:
			if !x.Open {
				x.Txn++
			}
			if ev.Op.IsAccess() && !x.Open {
				at++
			}
			if at >= from[t] {
				for _, l := range lx.of(&ev, ls[:0]) {
					x.See(l, x.Txn)
				}
			}
		}
		edges[t] += proj.EdgesOf(&ev, x.Open)
	}
}

// lockLetters gives, with lock edges, every event the letters that make its
// conflicts (more than docs/spec.md §1's, which is sound for a proof: more
// conflicts only add cycles): an access its own; acquire and release of
// lock l a write of a variable for l (so acquire conflicts with release both
// ways); fork U and join U, and every event of a forked or joined thread U,
// a write of a variable for U. A nil lockLetters gives accesses theirs only.
type lockLetters struct {
	vars, locks int
	marked      []bool // per thread: forked or joined by some thread
}

func newLockLetters(s *proj.Summary) *lockLetters {
	lx := &lockLetters{vars: len(s.Vars), locks: len(s.Locks), marked: make([]bool, len(s.Threads))}
	for u := range s.Forker {
		lx.marked[u] = true
	}
	for _, u := range s.Joined {
		lx.marked[u] = true
	}
	return lx
}

// of appends ev's letters to ls (an access's own first).
func (lx *lockLetters) of(ev *trace.Event, ls []profiles.Letter) []profiles.Letter {
	if ev.Op.IsAccess() {
		ls = append(ls, proj.LetterOf(ev))
	}
	if lx == nil {
		return ls
	}
	write := func(v int) profiles.Letter { return profiles.Letter(2*v + 1) }
	switch ev.Op {
	case model.OpAcquire, model.OpRelease:
		ls = append(ls, write(lx.vars+int(ev.Target)))
	case model.OpFork, model.OpJoin:
		ls = append(ls, write(lx.vars+lx.locks+int(ev.Target)))
	}
	if lx.marked[ev.Thread] {
		ls = append(ls, write(lx.vars+lx.locks+int(ev.Thread)))
	}
	return ls
}

// forkOpen is one thread's open transaction in the scan.
type forkOpen struct {
	open    bool
	pos     int64
	e       uint64
	letters map[profiles.Letter]bool
	cur     []int32 // least F over the letters seen, per final thread
}

// forkPrefilter reports whether the lock-free check with fork order finds
// no violation (a proof of serializability without lock edges); false also
// when it does not apply or ran out of budget.
func (p *predictor) forkPrefilter() (bool, error) {
	k := len(p.s.Threads)
	if len(p.s.Forker) == 0 || k > forkScanThreads {
		return false, nil
	}
	clk, err := forkClocks(p.s, p.sp)
	if err != nil {
		return false, err
	}
	fs := &forkScan{s: p.s, p: p, clk: clk, chainers: map[[2]uint64]*chain.Chainer{}, from: make([][]*proj.ThreadSum, k)}
	if p.o.Check.LockEdges {
		fs.lx = newLockLetters(p.s)
		if fs.base, err = summaryFrom(p.s, p.sp, make([]int64, k), fs.lx); err != nil {
			return false, err
		}
	}
	ts := make([]forkOpen, k)
	r := p.sp.Reader()
	var ev trace.Event
	var ls []profiles.Letter
	for n := 0; ; n++ {
		if err := r.Next(&ev); err == io.EOF {
			return true, nil
		} else if err != nil {
			return false, err
		}
		i := int(ev.Thread)
		st := &ts[i]
		switch {
		case ev.Op == model.OpBegin:
			st.open, st.letters, st.cur = true, map[profiles.Letter]bool{}, nil
		case ev.Op == model.OpEnd:
			st.open, st.letters, st.cur = false, nil, nil
		case ev.Op.IsAccess() && !st.open:
			st.pos += 2 // a unary access cannot be interrupted
		case st.open:
			ls = fs.lx.of(&ev, ls[:0])
			if ev.Op.IsAccess() && !p.u.Relevant(ev.Thread, ls[0]) {
				ls = ls[1:]
			}
			if violates, ok, err := fs.event(st, i, ls); err != nil || violates || !ok {
				return false, err
			}
		}
		st.pos++
		if n&4095 == 0 && p.ctx.Err() != nil {
			return false, nil
		}
	}
}

// event is i's event at edge st.pos in its open transaction, with letters
// ls: does a chain close on one of them, from a letter before the event?
func (fs *forkScan) event(st *forkOpen, i int, ls []profiles.Letter) (violates, ok bool, err error) {
	for _, l := range ls {
		if violates, ok, err = fs.access(st, i, l, false); err != nil || violates || !ok {
			return violates, ok, err
		}
	}
	for _, l := range ls {
		if _, ok, err = fs.access(st, i, l, true); err != nil || !ok {
			return false, ok, err
		}
	}
	return false, true, nil
}

// access checks whether a chain closes on i's letter l (b) in its open
// transaction, or (fold) folds F_l into the transaction's minima; !ok when
// the search gave up.
func (fs *forkScan) access(st *forkOpen, i int, l profiles.Letter, fold bool) (violates, ok bool, err error) {
	e := fs.excluded(i, st.pos)
	c, err := fs.chainer(i, e)
	if err != nil {
		return false, false, err
	}
	if e != st.e || st.cur == nil {
		st.e, st.cur = e, make([]int32, len(fs.s.Threads))
		for j := range st.cur {
			st.cur[j] = chain.Inf
		}
		for a := range st.letters {
			if !fs.fold(c, st, i, a) {
				return false, false, nil
			}
		}
	}
	for j, t := range st.cur {
		if !fold && t != chain.Inf && t <= c.Close(j, l) {
			return true, true, nil
		}
	}
	if fold && !st.letters[l] {
		st.letters[l] = true
		if !fs.fold(c, st, i, l) {
			return false, false, nil
		}
	}
	return false, true, nil
}

// fold lowers the transaction's minima by F_a; false when the search gave up.
func (fs *forkScan) fold(c *chain.Chainer, st *forkOpen, i int, a profiles.Letter) bool {
	f := c.Reach(i, a)
	if c.Stop != "" {
		return false
	}
	for j, t := range f {
		st.cur[j] = min(st.cur[j], t)
	}
	return true
}
