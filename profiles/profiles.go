package profiles

import (
	"context"
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Kind is the shape of a profile (Definition 4).
type Kind uint8

const (
	KindSingle Kind = iota // ▷ a ◁
	KindSame               // ▷ a b ◁
	KindDiff               // ▷ a ◁ ▷ b ◁
)

var kindNames = [...]string{"single", "same", "diff"}

func (k Kind) String() string { return kindNames[k] }

// Profile is one profile: A alone (KindSingle, B == A), or A then B.
type Profile struct {
	Kind Kind
	A, B Letter
}

// Profiles is the set of profiles of one thread, as three relations over
// letters. Same[x] holds the y such that ▷ x y ◁ is a profile, Diff[x] those
// such that ▷ x ◁ ▷ y ◁ is. Every set has width Words(Vars). Extract's
// Profiles share one empty row among the letters the thread never uses:
// read them, never write them.
type Profiles struct {
	Vars   int
	Single Set
	Same   []Set
	Diff   []Set
	// Edges is the number of reachable edges of the automaton (the n of
	// Theorem 1); Sync reports a lock, fork or join event among them, which
	// profiles ignore (they are the paper's model without synchronisation).
	Edges int
	Sync  bool
}

// newProfilesOver is the empty profile set over nvars variables of a
// thread that uses the letters used: only their rows have room of their
// own; the others share one empty set (their relations stay empty, so no
// one writes them), which keeps a thread's Profiles O(u·v) for u used
// letters instead of O(v²).
func newProfilesOver(nvars int, used []Letter) *Profiles {
	w := Words(nvars)
	p := &Profiles{Vars: nvars, Single: NewSet(w)}
	empty := NewSet(w)
	p.Same, p.Diff = make([]Set, 2*nvars), make([]Set, 2*nvars)
	for l := range p.Same {
		p.Same[l], p.Diff[l] = empty, empty
	}
	rs := rows(2*len(used), w)
	for i, l := range used {
		p.Single.Add(l)
		p.Same[l], p.Diff[l] = rs[2*i], rs[2*i+1]
	}
	return p
}

// rows makes n empty sets of width w backed by one allocation.
func rows(n, w int) []Set {
	flat := make([]uint64, n*w)
	rs := make([]Set, n)
	for i := range rs {
		rs[i] = flat[i*w : (i+1)*w : (i+1)*w]
	}
	return rs
}

// Letters is the number of letters, 2·Vars.
func (p *Profiles) Letters() int { return 2 * p.Vars }

// Has reports whether pr is a profile of the thread.
func (p *Profiles) Has(pr Profile) bool {
	n := Letter(p.Letters())
	if pr.A < 0 || pr.A >= n || pr.B < 0 || pr.B >= n {
		return false
	}
	switch pr.Kind {
	case KindSingle:
		return pr.A == pr.B && p.Single.Has(pr.A)
	case KindSame:
		return p.Same[pr.A].Has(pr.B)
	case KindDiff:
		return p.Diff[pr.A].Has(pr.B)
	}
	return false
}

// List returns every profile, sorted by kind, then A, then B.
func (p *Profiles) List() []Profile {
	var ps []Profile
	for _, a := range p.Single.Letters() {
		ps = append(ps, Profile{KindSingle, a, a})
	}
	for k, rel := range [][]Set{p.Same, p.Diff} {
		for a, row := range rel {
			for _, b := range row.Letters() {
				ps = append(ps, Profile{Kind(k + 1), Letter(a), b})
			}
		}
	}
	return ps
}

// Count is the number of profiles.
func (p *Profiles) Count() int {
	n := p.Single.Len()
	for a := range p.Same {
		n += p.Same[a].Len() + p.Diff[a].Len()
	}
	return n
}

// Extract computes the profiles of a thread (Definition 4). Finite automata
// are handled here (extract.go: one pass for straight-line threads, a
// fixpoint otherwise); pushdown ones by Lemma 4's saturation (pda.go).
func Extract(a *model.Automaton, nvars int) (*Profiles, error) {
	return ExtractContext(context.Background(), a, nvars)
}

// ExtractContext is Extract watching ctx: when it ends, the extraction
// stops within a few hundred steps with the context's cause as its error.
func ExtractContext(ctx context.Context, a *model.Automaton, nvars int) (*Profiles, error) {
	if a.Init < 0 || int(a.Init) >= a.NumStates() {
		return nil, fmt.Errorf("profiles: initial state %d out of range", a.Init)
	}
	c := newCollector(a, nvars)
	c.within(ctx)
	if ok, err := extractLine(a, c); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return c.profiles(), nil
	}
	if err := checkTargets(a, nvars); err != nil {
		return nil, err
	}
	if a.Pushdown() {
		return extractPushdown(ctx, a, nvars)
	}
	c = newCollector(a, nvars)
	c.within(ctx)
	if err := extractRegular(a, c); err != nil {
		return nil, err
	}
	return c.profiles(), nil
}

// checkTargets rejects access events whose variable is out of range and
// edges to missing states, so extraction never indexes out of bounds.
func checkTargets(a *model.Automaton, nvars int) error {
	n, L := int32(a.NumStates()), Letter(2*nvars)
	for q, es := range a.Out {
		for i := range es {
			if err := checkEdge(int32(q), &es[i], n, L); err != nil {
				return err
			}
		}
	}
	return nil
}
