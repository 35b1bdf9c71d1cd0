package profiles

import (
	"math/rand"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

// randomPDA is randomAuto with stack operations: each edge pushes or pops
// one of nsyms symbols with probability 1/3 each, whatever its event, so
// pops guard events and pushes carry them, as automaton threads allow.
func randomPDA(r *rand.Rand, n, edges, nvars, nsyms int) *model.Automaton {
	a := randomAuto(r, n, edges, nvars)
	for q := range a.Out {
		for i := range a.Out[q] {
			e := &a.Out[q][i]
			switch r.Intn(3) {
			case 1:
				e.Stack, e.Sym = model.StackPush, int32(r.Intn(nsyms))
			case 2:
				e.Stack, e.Sym = model.StackPop, int32(r.Intn(nsyms))
			}
		}
	}
	return a
}

// boundedStack unfolds a pushdown system into the finite automaton of its
// configurations (state, stack) with at most h symbols on the stack, whose
// runs are the runs of a that never hold more. Its profiles (by the finite
// extraction, an independent algorithm) are a subset of a's, and equal for
// h large enough.
func boundedStack(a *model.Automaton, h int) *model.Automaton {
	type config struct {
		q     int32
		stack string
	}
	b := &model.Automaton{}
	index := map[config]int32{}
	var queue []config
	add := func(c config) int32 {
		if i, ok := index[c]; ok {
			return i
		}
		i := int32(len(b.Out))
		index[c] = i
		b.Out = append(b.Out, nil)
		b.InTxn = append(b.InTxn, a.InTxn[c.q])
		b.Held = append(b.Held, nil)
		queue = append(queue, c)
		return i
	}
	add(config{a.Init, ""})
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		from := index[c]
		for _, e := range a.Out[c.q] {
			st := c.stack
			switch e.Stack {
			case model.StackPush:
				if len(st) == h {
					continue
				}
				st += string(rune('a' + e.Sym))
			case model.StackPop:
				if st == "" || st[len(st)-1] != byte('a'+e.Sym) {
					continue
				}
				st = st[:len(st)-1]
			}
			to := add(config{e.To, st})
			b.Out[from] = append(b.Out[from], model.Edge{To: to, Ev: e.Ev})
		}
	}
	return b
}

// replayPDA asserts that path is a run of a from Init with the empty stack
// and that its moves ia and ib exhibit pr (checkPath's conditions).
func replayPDA(t *testing.T, a *model.Automaton, pr Profile, path []model.Move, ia, ib int) {
	t.Helper()
	q, stack := a.Init, []int32{}
	for i, m := range path {
		require.Equal(t, q, m.From, "move %d", i)
		require.Less(t, int(m.Edge), len(a.Out[q]), "move %d", i)
		e := a.Out[q][m.Edge]
		switch e.Stack {
		case model.StackPush:
			stack = append(stack, e.Sym)
		case model.StackPop:
			require.NotEmpty(t, stack, "move %d pops the empty stack", i)
			require.Equal(t, e.Sym, stack[len(stack)-1], "move %d pops the wrong symbol", i)
			stack = stack[:len(stack)-1]
		}
		q = e.To
	}
	checkPath(t, a, pr, path, ia, ib)
}

// pdaOracle is oracle (path_test.go) with PushdownPath: one product
// saturation per candidate profile.
func pdaOracle(t *testing.T, a *model.Automaton, nvars int) *Profiles {
	p := newProfiles(nvars)
	L := Letter(2 * nvars)
	try := func(pr Profile, add func()) {
		path, ia, ib, ok, err := PushdownPath(a, pr)
		require.NoError(t, err)
		if ok {
			replayPDA(t, a, pr, path, ia, ib)
			add()
		}
	}
	for x := Letter(0); x < L; x++ {
		try(Profile{KindSingle, x, x}, func() { p.Single.Add(x) })
		for y := Letter(0); y < L; y++ {
			try(Profile{KindSame, x, y}, func() { p.Same[x].Add(y) })
			try(Profile{KindDiff, x, y}, func() { p.Diff[x].Add(y) })
		}
	}
	return p
}
