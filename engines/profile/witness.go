package profile

import (
	"fmt"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/profiles"
)

// chain is a violation found from profiles: thread thread has ▷ a b ◁, and
// the links leave its transaction after a and come back before b.
type chain struct {
	thread int
	a, b   profiles.Letter
	links  []link
}

// link is one thread of the chain, entered by a conflict on letter in and
// left by a conflict on letter out.
type link struct {
	thread  int
	in, out profiles.Letter
}

// realised is a thread's path in the witness: the moves it takes and the
// indices of its entry (in) and exit (out) moves; split says that in and out
// lie in different transactions (so the cycle needs the program-order
// conflict in→out).
type realised struct {
	path    []model.Move
	in, out int
	split   bool
}

// realiseLink picks a profile that lets the thread be entered by l.in and
// left by l.out, and a path of its automaton exhibiting it.
func realiseLink(tp ThreadProfiles, l link) (realised, error) {
	pr := tp.Profiles()
	var want profiles.Profile
	swap := false
	switch {
	case l.in == l.out && pr.Single.Has(l.in):
		want = profiles.Profile{Kind: profiles.KindSingle, A: l.in, B: l.in}
	case pr.Same[l.in].Has(l.out):
		want = profiles.Profile{Kind: profiles.KindSame, A: l.in, B: l.out}
	case pr.Diff[l.in].Has(l.out):
		want = profiles.Profile{Kind: profiles.KindDiff, A: l.in, B: l.out}
	case pr.Same[l.out].Has(l.in):
		want, swap = profiles.Profile{Kind: profiles.KindSame, A: l.out, B: l.in}, true
	default:
		return realised{}, fmt.Errorf("profile engine: internal error: thread %d has no profile from %d to %d", l.thread, l.in, l.out)
	}
	path, ia, ib, ok, err := tp.Path(want)
	if err != nil || !ok {
		return realised{}, fmt.Errorf("profile engine: internal error: no path for profile %+v of thread %d (%v)", want, l.thread, err)
	}
	if swap {
		ia, ib = ib, ia
	}
	return realised{path: path, in: ia, out: ib, split: want.Kind == profiles.KindDiff}, nil
}

// runBuilder appends threads' moves to a run and remembers where each move's
// event landed.
type runBuilder struct {
	p   *model.Program
	w   *model.Witness
	pos map[[2]int]int // (thread, move index) -> run index
}

func (rb *runBuilder) emit(t int, path []model.Move, from, to int) {
	a := rb.p.Threads[t].Auto
	for k := from; k < to; k++ {
		m := path[k]
		ev := a.Out[m.From][m.Edge].Ev
		rb.w.Paths[t] = append(rb.w.Paths[t], m)
		if ev.Op != model.OpSkip {
			rb.pos[[2]int{t, k}] = len(rb.w.Run)
			rb.w.Run = append(rb.w.Run, model.Step{Thread: int32(t), Ev: ev})
		}
	}
}

func (rb *runBuilder) at(t, k int) int { return rb.pos[[2]int{t, k}] }

// buildWitness turns a chain into the normal run of Lemma 2 — thread i up to
// a, each link thread up to the later of its two events, then i on to b —
// and the conflict cycle T → j1 → … → jm → T through the chosen events.
func buildWitness(p *model.Program, tps []ThreadProfiles, ch chain, lockEdges bool) (*model.Witness, error) {
	i := ch.thread
	ipath, ia, ib, ok, err := tps[i].Path(profiles.Profile{Kind: profiles.KindSame, A: ch.a, B: ch.b})
	if err != nil || !ok {
		return nil, fmt.Errorf("profile engine: internal error: no path for ▷ %d %d ◁ of thread %d (%v)", ch.a, ch.b, i, err)
	}
	w := &model.Witness{Paths: make([][]model.Move, len(p.Threads)), LockEdges: lockEdges}
	for t := range w.Paths {
		w.Paths[t] = []model.Move{}
	}
	rb := &runBuilder{p: p, w: w, pos: map[[2]int]int{}}
	rb.emit(i, ipath, 0, ia+1)
	rs := make([]realised, len(ch.links))
	for k, l := range ch.links {
		if rs[k], err = realiseLink(tps[l.thread], l); err != nil {
			return nil, err
		}
		rb.emit(l.thread, rs[k].path, 0, max(rs[k].in, rs[k].out)+1)
	}
	rb.emit(i, ipath, ia+1, ib+1)
	from := rb.at(i, ia)
	for k, l := range ch.links {
		in, out := rb.at(l.thread, rs[k].in), rb.at(l.thread, rs[k].out)
		w.Cycle = append(w.Cycle, model.Conflict{From: from, To: in})
		if rs[k].split {
			w.Cycle = append(w.Cycle, model.Conflict{From: in, To: out})
		}
		from = out
	}
	w.Cycle = append(w.Cycle, model.Conflict{From: from, To: rb.at(i, ib)})
	return w, nil
}
