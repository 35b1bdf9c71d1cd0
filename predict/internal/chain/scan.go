package chain

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// Interrupted is a transaction the scan found interrupted: thread i's letters a
// (edge p of its projection) and b (edge q > p) in one transaction, with a
// chain from a back to b.
type Interrupted struct {
	Thread int
	A, B   profiles.Letter
	P, Q   int64
}

// scanThread is the scan's state for one thread: the open transaction's
// least F_a per final thread, with the letter and edge that gave it.
type scanThread struct {
	open bool
	pos  int64 // edges of the projection so far
	cur  []int32
	curL []profiles.Letter
	curP []int64
	any  bool
	fIdx []int32 // per letter: 0 unknown, -1 no chain, n+1 index into ftab
	// The open transaction's last relevant letter and its edge, not yet
	// folded into cur: F of a letter is needed only when another access
	// follows it in its transaction, so a transaction of one relevant
	// access (most, in many traces) never starts a chain search.
	pending bool
	pendL   profiles.Letter
	pendPos int64
}

// scan is the second pass (Lemma 3 over the spool): in every transaction of
// every thread i, is there an access b after an access a with F_a[j] <=
// M_j(b) for some j? It keeps, per open transaction, the least F so far, so
// it costs O(threads) per relevant access. The minima (O(threads) each) are
// held only by transactions that have folded an F, and go back to a pool
// at their end: memory is O(threads × transactions open at once with two
// relevant accesses), not O(threads²) (16,000 one-write threads and one
// two-access transaction took 4 GB).
func (c *Chainer) scan(sp *proj.Spool, u *proj.Users) (Interrupted, bool, error) {
	return c.ScanEach(sp, u, nil, nil)
}

// ScanEach is scan that, with hit, goes on after a violation: hit gets
// each interrupted transaction's pair at its access b (ev) and says
// whether to stop (conc predict --all, predict/all/finders.go); each, if set, sees every
// event first.
func (c *Chainer) ScanEach(sp *proj.Spool, u *proj.Users, each func(*trace.Event), hit func(Interrupted, *trace.Event) bool) (Interrupted, bool, error) {
	ts := make([]scanThread, c.k)
	for i := range ts {
		ts[i].fIdx = make([]int32, len(c.th[i].Span))
	}
	var pool minima
	var ftab [][]int32
	r := trace.ReadAhead(sp.Reader().Read) // decoding costs about as much as the scan
	defer r.Close()
	var ev trace.Event
	for n := 0; ; n++ {
		if err := r.Next(&ev); err == io.EOF {
			return Interrupted{}, false, nil
		} else if err != nil {
			return Interrupted{}, false, err
		}
		if each != nil {
			each(&ev)
		}
		i := int(ev.Thread)
		st := &ts[i]
		switch ev.Op {
		case model.OpBegin:
			st.open, st.any, st.pending = true, false, false
		case model.OpEnd:
			st.open, st.pending = false, false
			pool.put(st)
		case model.OpRead, model.OpWrite:
			if !st.open {
				st.pos += 3
				continue
			}
			if l := proj.LetterOf(&ev); u.Relevant(ev.Thread, l) {
				if st.pending {
					f := c.cachedReach(st, i, st.pendL, &ftab)
					if c.Stop != "" {
						return Interrupted{}, false, nil
					}
					st.lower(f, st.pendL, st.pendPos, &pool)
				}
				if j := c.closes(st, l); j >= 0 {
					pr := Interrupted{Thread: i, A: st.curL[j], B: l, P: st.curP[j], Q: st.pos}
					if hit == nil || hit(pr, &ev) {
						return pr, true, nil
					}
				}
				st.pending, st.pendL, st.pendPos = true, l, st.pos
			}
		}
		st.pos++
		if n&4095 == 0 && c.Ctx.Err() != nil {
			c.halt(Ended(c.Ctx))
			return Interrupted{}, false, nil
		}
	}
}

// closes returns a thread j whose chain from an earlier letter of the open
// transaction closes on b, or -1.
func (c *Chainer) closes(st *scanThread, b profiles.Letter) int {
	if !st.any {
		return -1
	}
	for j, t := range st.cur {
		if t != Inf && t <= c.Close(j, b) {
			return j
		}
	}
	return -1
}

// lower folds F_l (l at edge pos) into the open transaction's minima,
// taking them from the pool at the transaction's first F.
func (st *scanThread) lower(f []int32, l profiles.Letter, pos int64, pool *minima) {
	if f == nil {
		return
	}
	if !st.any {
		if st.cur == nil {
			pool.get(st, len(f))
		}
		for j := range st.cur {
			st.cur[j] = Inf
		}
		st.any = true
	}
	for j, t := range f {
		if t < st.cur[j] {
			st.cur[j], st.curL[j], st.curP[j] = t, l, pos
		}
	}
}

// cachedReach is reach(i, l), remembered per thread and letter.
func (c *Chainer) cachedReach(st *scanThread, i int, l profiles.Letter, ftab *[][]int32) []int32 {
	switch x := st.fIdx[l]; {
	case x > 0:
		return (*ftab)[x-1]
	case x < 0:
		return nil
	}
	f := c.Reach(i, l)
	if c.Stop != "" {
		return nil
	}
	if f == nil {
		st.fIdx[l] = -1
		return nil
	}
	*ftab = append(*ftab, f)
	st.fIdx[l] = int32(len(*ftab))
	return f
}

// minima is the pool of the open transactions' minima (cur, curL, curP).
type minima struct {
	free []scanThread
}

// get gives st minima over k threads.
func (m *minima) get(st *scanThread, k int) {
	if n := len(m.free); n > 0 {
		f := m.free[n-1]
		m.free = m.free[:n-1]
		st.cur, st.curL, st.curP = f.cur, f.curL, f.curP
		return
	}
	st.cur, st.curL, st.curP = make([]int32, k), make([]profiles.Letter, k), make([]int64, k)
}

// put takes st's minima back, if it has any.
func (m *minima) put(st *scanThread) {
	if st.cur != nil {
		m.free = append(m.free, scanThread{cur: st.cur, curL: st.curL, curP: st.curP})
		st.cur, st.curL, st.curP, st.any = nil, nil, nil, false
	}
}
