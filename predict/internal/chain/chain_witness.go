package chain

import (
	"fmt"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// link is one thread of a chain with its letters: entered by in (in
// transaction first(in)), left by out (in a transaction at or after it).
type Link struct {
	j       int
	t       int32 // entry transaction
	in, out profiles.Letter
}

// Links picks the letters of a chain found by ChainTo: each entry letter
// achieves the hop's transaction, and each exit letter the next hop's (or
// conflicts with b, for the last).
func (c *Chainer) Links(pr Interrupted, hops []hop) ([]Link, error) {
	ls := make([]Link, len(hops))
	prev := pr.A
	for x, h := range hops {
		in := c.entryLetter(h.j, prev, h.t)
		var out profiles.Letter = -1
		for l, sp := range c.th[h.j].Span {
			last := sp.Last
			if last < h.t || last == 0 {
				continue
			}
			e := profiles.Letter(l)
			if x+1 < len(hops) && c.enter(hops[x+1].j, e) == hops[x+1].t ||
				x+1 == len(hops) && e.Conflicts(pr.B) {
				out = e
				break
			}
		}
		if in < 0 || out < 0 {
			return nil, fmt.Errorf("predict: internal error: chain hop %d (thread %d at %d) has no letters", x, h.j, h.t)
		}
		ls[x] = Link{j: h.j, t: h.t, in: in, out: out}
		prev = out
	}
	return ls, nil
}

// entryLetter is a letter of thread j conflicting with prev whose first
// transaction is t.
func (c *Chainer) entryLetter(j int, prev profiles.Letter, t int32) profiles.Letter {
	for _, e := range Conflicting(prev) {
		if e >= 0 && c.th[j].FirstOf(e) == t {
			return e
		}
	}
	return -1
}

// Query asks for the first edge of thread t with letter l in a transaction
// numbered at least txn.
type Query struct {
	t   int
	l   profiles.Letter
	txn int32
}

// Occurrence is where a query was answered: the edge and its transaction.
type Occurrence struct {
	pos int64
	txn int32
}

// Locate answers queries in one pass over the spool, which ends at the
// last answer, or as soon as doom (nil: none) sees that the normal run
// cannot respect the locks (chain_doom.go): then it returns nil. The
// pending queries are indexed by thread and letter, so that an access
// costs a lookup, not a look at every query (conc predict --all asks many
// at once, predict/all/locate.go).
func Locate(sp *proj.Spool, k int, qs []Query, doom *lockDoom) ([]Occurrence, error) {
	found := make([]Occurrence, len(qs))
	pending := make([]map[profiles.Letter][]int, k)
	left := make([]int, k) // per thread: its queries unanswered
	for x, q := range qs {
		found[x].pos = -1
		if pending[q.t] == nil {
			pending[q.t] = map[profiles.Letter][]int{}
		}
		pending[q.t][q.l] = append(pending[q.t][q.l], x)
		left[q.t]++
	}
	pp := newProjPos(k)
	r := sp.Reader()
	var ev trace.Event
	for all := len(qs); all > 0; {
		if err := r.Next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		t := int(ev.Thread)
		if at := pp.step(&ev); at >= 0 {
			if xs := pending[t][proj.LetterOf(&ev)]; len(xs) > 0 {
				rest := xs[:0]
				for _, x := range xs {
					if pp.txn[t] < qs[x].txn {
						rest = append(rest, x)
						continue
					}
					found[x] = Occurrence{at, pp.txn[t]}
					all, left[t] = all-1, left[t]-1
				}
				pending[t][proj.LetterOf(&ev)] = rest
			}
		}
		if doom != nil && doom.event(t, ev.Op, ev.Target, pp.pos[t], left[t] > 0) {
			return nil, nil
		}
	}
	return found, unanswered(qs, found)
}

// unanswered is the internal error of a query the pass did not answer.
func unanswered(qs []Query, found []Occurrence) error {
	for x, f := range found {
		if f.pos < 0 {
			return fmt.Errorf("predict: internal error: no occurrence for %+v", qs[x])
		}
	}
	return nil
}

// projPos follows each thread's place in its projection while a pass reads
// the spool: its transactions begun (a unary access is one) and its edges
// taken (a unary access is three: begin, the access, end).
type projPos struct {
	txn  []int32
	pos  []int64
	open []bool
}

func newProjPos(k int) *projPos {
	return &projPos{txn: make([]int32, k), pos: make([]int64, k), open: make([]bool, k)}
}

// step takes thread t's event and returns the edge of an access, -1 for
// any other event.
func (pp *projPos) step(ev *trace.Event) int64 {
	t := ev.Thread
	at := int64(-1)
	switch ev.Op {
	case model.OpBegin:
		pp.txn[t]++
		pp.open[t] = true
	case model.OpEnd:
		pp.open[t] = false
	case model.OpRead, model.OpWrite:
		at = pp.pos[t]
		if !pp.open[t] {
			pp.txn[t]++
			at++
			pp.pos[t] += 2
		}
	}
	pp.pos[t]++
	return at
}

// Plan is Lemma 2's normal run for a pair and its chain: thread i up to
// a, each link thread up to the later of its two events, then i on to b; the
// cycle is T → j1 → … → jm → T, with the program-order step inside a link
// thread whose two events lie in different transactions.
//
// With c.LockedRun the run is for the trace with its locks, and a run
// that cannot respect them is not planned: Plan stops its pass there
// and sets c.Doomed (chain_doom.go).
func (c *Chainer) Plan(sp *proj.Spool, pr Interrupted, ls []Link) (proj.Plan, error) {
	qs := Queries(ls)
	var doom *lockDoom
	if c.LockedRun {
		doom = newLockDoom(c.k, pr.Thread, pr.P, qs)
	}
	pos, err := Locate(sp, c.k, qs, doom)
	if err != nil || pos == nil {
		c.Doomed = err == nil
		return proj.Plan{}, err
	}
	return PlanAt(pr, ls, pos), nil
}

// Queries are the queries that locate a chain's events: each link's
// entry and exit.
func Queries(ls []Link) []Query {
	var qs []Query
	for _, l := range ls {
		qs = append(qs, Query{l.j, l.in, l.t}, Query{l.j, l.out, l.t})
	}
	return qs
}

// PlanAt is Plan once its queries are answered (pos).
func PlanAt(pr Interrupted, ls []Link, pos []Occurrence) proj.Plan {
	pl := proj.Plan{Segs: []proj.Segment{{Thread: pr.Thread, Upto: pr.P}}}
	from := proj.Ref{Thread: pr.Thread, Edge: pr.P}
	for x, l := range ls {
		oi, oo := pos[2*x], pos[2*x+1]
		in, out := proj.Ref{Thread: l.j, Edge: oi.pos}, proj.Ref{Thread: l.j, Edge: oo.pos}
		pl.Segs = append(pl.Segs, proj.Segment{Thread: l.j, Upto: max(in.Edge, out.Edge)})
		pl.Cycle = append(pl.Cycle, [2]proj.Ref{from, in})
		if oo.txn != oi.txn { // in a later transaction: program order links them
			pl.Cycle = append(pl.Cycle, [2]proj.Ref{in, out})
		}
		from = out
	}
	pl.Segs = append(pl.Segs, proj.Segment{Thread: pr.Thread, Upto: pr.Q})
	pl.Cycle = append(pl.Cycle, [2]proj.Ref{from, proj.Ref{Thread: pr.Thread, Edge: pr.Q}})
	return pl
}
