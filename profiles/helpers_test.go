package profiles

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/conc-dev/conc/model"
)

// ev parses a token of the test notation: b (begin), e (end), s (skip),
// rN / wN (read / write of variable N).
func ev(tok string) model.Event {
	switch tok[0] {
	case 'b':
		return model.Event{Op: model.OpBegin, Target: -1}
	case 'e':
		return model.Event{Op: model.OpEnd, Target: -1}
	case 's':
		return model.Event{Op: model.OpSkip, Target: -1}
	case 'r', 'w':
		var v int32
		if _, err := fmt.Sscanf(tok[1:], "%d", &v); err != nil {
			panic(err)
		}
		op := model.OpRead
		if tok[0] == 'w' {
			op = model.OpWrite
		}
		return model.Event{Op: op, Target: v}
	}
	panic("bad token " + tok)
}

// line builds a straight-line automaton from space-separated tokens.
func line(spec string) *model.Automaton {
	toks := strings.Fields(spec)
	n := len(toks) + 1
	a := &model.Automaton{Out: make([][]model.Edge, n), InTxn: make([]bool, n), Held: make([][]int32, n)}
	in := false
	for i, t := range toks {
		e := ev(t)
		a.Out[i] = []model.Edge{{To: int32(i + 1), Ev: e}}
		switch e.Op {
		case model.OpBegin:
			in = true
		case model.OpEnd:
			in = false
		}
		a.InTxn[i+1] = in
	}
	return a
}

// randomAuto builds a random finite automaton with n states over nvars
// variables that keeps model.Automaton's invariants: whether a state is inside
// a transaction is fixed, begin enters one, end leaves one, accesses stay in.
func randomAuto(r *rand.Rand, n, edges, nvars int) *model.Automaton {
	a := &model.Automaton{Out: make([][]model.Edge, n), InTxn: make([]bool, n), Held: make([][]int32, n)}
	for q := 1; q < n; q++ {
		a.InTxn[q] = r.Intn(3) > 0
	}
	for i := 0; i < edges; i++ {
		from, to := int32(r.Intn(n)), int32(r.Intn(n))
		var e model.Event
		switch {
		case !a.InTxn[from] && a.InTxn[to]:
			e = model.Event{Op: model.OpBegin, Target: -1}
		case a.InTxn[from] && !a.InTxn[to]:
			e = model.Event{Op: model.OpEnd, Target: -1}
		case a.InTxn[from] && r.Intn(4) > 0:
			e = model.Event{Op: model.OpRead + model.Op(r.Intn(2)), Target: int32(r.Intn(nvars))}
		default:
			e = model.Event{Op: model.OpSkip, Target: -1}
		}
		a.Out[from] = append(a.Out[from], model.Edge{To: to, Ev: e})
	}
	return a
}

// oracle computes the profiles of a by one Path search per candidate
// profile: the paper's O(v²·n) membership construction.
func oracle(a *model.Automaton, nvars int) *Profiles {
	p := newProfiles(nvars)
	L := Letter(2 * nvars)
	for x := Letter(0); x < L; x++ {
		if _, _, _, ok, _ := Path(a, Profile{KindSingle, x, x}); ok {
			p.Single.Add(x)
		}
		for y := Letter(0); y < L; y++ {
			if _, _, _, ok, _ := Path(a, Profile{KindSame, x, y}); ok {
				p.Same[x].Add(y)
			}
			if _, _, _, ok, _ := Path(a, Profile{KindDiff, x, y}); ok {
				p.Diff[x].Add(y)
			}
		}
	}
	return p
}

// newProfiles returns the empty profile set over nvars variables, every
// row its own (the oracles write them).
func newProfiles(nvars int) *Profiles {
	w := Words(nvars)
	p := &Profiles{Vars: nvars, Single: NewSet(w)}
	p.Same = rows(2*nvars, w)
	p.Diff = rows(2*nvars, w)
	return p
}
