package forkorder

import (
	"context"

	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
)

// scan is the prefilter's state: a chainer per set of excluded threads.
type scan struct {
	ctx      context.Context
	in       Input
	clk      [][]int64
	chainers map[[2]uint64]*chain.Chainer
	from     [][]*proj.ThreadSum // per forked thread i: the others' summaries after i's fork
	lx       *lockLetters        // with lock edges: the synchronisation's letters
	base     []*proj.ThreadSum   // with lock edges: the summaries with them
	ls       []profiles.Letter   // the letters of the event at hand
}

// newScan computes the fork clocks and, with lock edges, the summaries over
// the synchronisation's letters.
func newScan(ctx context.Context, in Input) (*scan, error) {
	clk, err := forkClocks(in.Summary, in.Spool)
	if err != nil {
		return nil, err
	}
	k := len(in.Summary.Threads)
	fs := &scan{ctx: ctx, in: in, clk: clk, chainers: map[[2]uint64]*chain.Chainer{}, from: make([][]*proj.ThreadSum, k)}
	if in.LockEdges {
		fs.lx = newLockLetters(in.Summary)
		if fs.base, err = summaryFrom(in.Summary, in.Spool, make([]int64, k), fs.lx); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// excluded is E at thread i's edge q: the threads whose fork comes after it.
func (fs *scan) excluded(i int, q int64) uint64 {
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
func (fs *scan) chainer(i int, e uint64) (*chain.Chainer, error) {
	key := [2]uint64{uint64(i), e}
	if c, ok := fs.chainers[key]; ok {
		return c, nil
	}
	th := fs.in.Summary.Threads
	if fs.base != nil {
		th = fs.base
	}
	if fs.clk[i] != nil {
		if fs.from[i] == nil {
			from, err := summaryFrom(fs.in.Summary, fs.in.Spool, fs.clk[i], fs.lx)
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
	c := chain.New(fs.ctx, &proj.Summary{Threads: th}, fs.in.MaxStates)
	if fs.in.Budget > 0 {
		c.Limit = fs.in.Budget
	}
	fs.chainers[key] = c
	return c, nil
}

// event is i's event at edge st.pos in its open transaction, with letters
// ls: does a chain close on one of them, from a letter before the event?
func (fs *scan) event(st *openTxn, i int, ls []profiles.Letter) (violates, ok bool, err error) {
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
func (fs *scan) access(st *openTxn, i int, l profiles.Letter, fold bool) (violates, ok bool, err error) {
	e := fs.excluded(i, st.pos)
	c, err := fs.chainer(i, e)
	if err != nil {
		return false, false, err
	}
	if e != st.e || st.cur == nil {
		st.e, st.cur = e, make([]int32, len(fs.in.Summary.Threads))
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
func (fs *scan) fold(c *chain.Chainer, st *openTxn, i int, a profiles.Letter) bool {
	f := c.Reach(i, a)
	if c.Stop != "" {
		return false
	}
	for j, t := range f {
		st.cur[j] = min(st.cur[j], t)
	}
	return true
}
