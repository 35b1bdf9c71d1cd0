package predict

import (
	"io"

	"github.com/conc-dev/conc/model"
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
// of what is left (the threads of E(b) are left empty). E(b) only shrinks as b moves on in
// its thread, so each thread's open transaction refolds its F's at most
// once per fork it passes. No violation here means none with the
// synchronisation; a violation here concludes nothing.

// forkScanThreads bounds the threads: E is a word, and the chain search is
// the exhaustive one (2^k·k states at most).
const forkScanThreads = 12

// forkClocks are, per forked thread, the clock (in edges, program order and
// fork only) of its fork.
func (s *summary) forkClocks(sp *spool) ([][]int64, error) {
	k := len(s.threads)
	vc, clk := make([][]int64, k), make([][]int64, k)
	for t := range vc {
		vc[t] = make([]int64, k)
	}
	open := make([]bool, k)
	r := sp.reader()
	var ev trace.Event
	for {
		if err := r.next(&ev); err == io.EOF {
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
		vc[t][t] += edgesOf(&ev, open[t])
		if ev.Op == model.OpFork {
			joinVC(vc[ev.Target], vc[t])
			clk[ev.Target] = append([]int64(nil), vc[t]...)
		}
	}
}

// forkScan is the scan's state: a chainer per set of excluded threads.
type forkScan struct {
	s        *summary
	p        *predictor
	clk      [][]int64
	chainers map[[2]uint64]*chainer
	from     [][]*threadSum // per forked thread i: the others' summaries after i's fork
	states   int64
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
func (fs *forkScan) chainer(i int, e uint64) (*chainer, error) {
	key := [2]uint64{uint64(i), e}
	if c, ok := fs.chainers[key]; ok {
		return c, nil
	}
	th := fs.s.threads
	if fs.clk[i] != nil {
		if fs.from[i] == nil {
			from, err := fs.s.summaryFrom(fs.p.sp, fs.clk[i])
			if err != nil {
				return nil, err
			}
			fs.from[i] = from
		}
		th = fs.from[i]
	}
	th = append([]*threadSum(nil), th...)
	for u := range th {
		if e&(1<<u) != 0 {
			th[u] = &threadSum{}
		}
	}
	c := newChainer(fs.p.ctx, &summary{threads: th}, fs.p.o.Check.MaxStates)
	if fs.p.defaultBudget() {
		c.limit = fs.p.chainBudget()
	}
	fs.chainers[key] = c
	return c, nil
}

// summaryFrom is the first pass's letter summary of every thread t counting
// only its edges from from[t] on (transactions numbered as in the whole).
func (s *summary) summaryFrom(sp *spool, from []int64) ([]*threadSum, error) {
	th := make([]*threadSum, len(s.threads))
	for t := range th {
		th[t] = &threadSum{}
	}
	edges := make([]int64, len(th))
	r := sp.reader()
	var ev trace.Event
	for {
		if err := r.next(&ev); err == io.EOF {
			return th, nil
		} else if err != nil {
			return nil, err
		}
		t, x := ev.Thread, th[ev.Thread]
		at := edges[t]
		switch {
		case ev.Op == model.OpBegin:
			x.txn++
			x.open = true
		case ev.Op == model.OpEnd:
			x.open = false
		case ev.Op.IsAccess():
			if !x.open {
				x.txn++
				at++
			}
			if at >= from[t] {
				x.see(letterOf(&ev), x.txn)
			}
		}
		edges[t] += edgesOf(&ev, x.open)
	}
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
	k := len(p.s.threads)
	if len(p.s.forker) == 0 || p.o.Check.LockEdges || k > forkScanThreads {
		return false, nil
	}
	clk, err := p.s.forkClocks(p.sp)
	if err != nil {
		return false, err
	}
	fs := &forkScan{s: p.s, p: p, clk: clk, chainers: map[[2]uint64]*chainer{}, from: make([][]*threadSum, k)}
	ts := make([]forkOpen, k)
	r := p.sp.reader()
	var ev trace.Event
	for n := 0; ; n++ {
		if err := r.next(&ev); err == io.EOF {
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
		case ev.Op.IsAccess():
			if l := letterOf(&ev); p.u.relevant(ev.Thread, l) {
				if violates, ok, err := fs.access(st, i, l); err != nil || violates || !ok {
					return false, err
				}
			}
		}
		st.pos++
		if n&4095 == 0 && p.ctx.Err() != nil {
			return false, nil
		}
	}
}

// access is i's relevant access b (letter l) in its open transaction: it
// reports a chain closing on b, or !ok when the search gave up.
func (fs *forkScan) access(st *forkOpen, i int, l profiles.Letter) (violates, ok bool, err error) {
	e := fs.excluded(i, st.pos)
	c, err := fs.chainer(i, e)
	if err != nil {
		return false, false, err
	}
	if e != st.e || st.cur == nil {
		st.e, st.cur = e, make([]int32, len(fs.s.threads))
		for j := range st.cur {
			st.cur[j] = inf
		}
		for a := range st.letters {
			if !fs.fold(c, st, i, a) {
				return false, false, nil
			}
		}
	}
	for j, t := range st.cur {
		if t != inf && t <= c.close(j, l) {
			return true, true, nil
		}
	}
	if !st.letters[l] {
		st.letters[l] = true
		if !fs.fold(c, st, i, l) {
			return false, false, nil
		}
	}
	return false, true, nil
}

// fold lowers the transaction's minima by F_a; false when the search gave up.
func (fs *forkScan) fold(c *chainer, st *forkOpen, i int, a profiles.Letter) bool {
	before := c.states
	f := c.reach(i, a)
	fs.states += c.states - before
	if c.stop != "" {
		return false
	}
	for j, t := range f {
		st.cur[j] = min(st.cur[j], t)
	}
	return true
}
