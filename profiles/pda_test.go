package profiles

import (
	"math/rand"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

// stacker is examples/pushdown.conc's Stacker: begin; (read x / push a)^n;
// (write y / pop a)^m; end, m <= n.
func stacker() *model.Automaton {
	return &model.Automaton{
		Out: [][]model.Edge{
			{{To: 1, Ev: ev("b")}},
			{{To: 1, Ev: ev("r0"), Stack: model.StackPush}, {To: 2, Ev: ev("s")}},
			{{To: 2, Ev: ev("w1"), Stack: model.StackPop}, {To: 3, Ev: ev("e")}},
			nil,
		},
		InTxn: []bool{false, true, true, false},
		Held:  make([][]int32, 4),
	}
}

func TestPushdownStacker(t *testing.T) {
	p, err := Extract(stacker(), 2)
	require.NoError(t, err)
	require.Equal(t, []Letter{lt("r0"), lt("w1")}, p.Single.Letters())
	require.Equal(t, []Letter{lt("r0"), lt("w1")}, p.Same[lt("r0")].Letters())
	require.Equal(t, []Letter{lt("w1")}, p.Same[lt("w1")].Letters()) // n = m = 2
	for _, x := range p.Single.Letters() {
		require.True(t, p.Diff[x].Empty(), "no Diff profile: one transaction")
	}
	require.Equal(t, 2+3, p.Count())
	require.Equal(t, 5, p.Edges)

	// Without the pushes, the pop can never fire: no write of y at all.
	a := stacker()
	a.Out[1] = a.Out[1][1:]
	p, err = ExtractPushdown(a, 2)
	require.NoError(t, err)
	require.True(t, p.Single.Empty())
	_, _, _, ok, err := PushdownPath(a, Profile{KindSingle, lt("w1"), lt("w1")})
	require.NoError(t, err)
	require.False(t, ok)
}

// TestPushdownCounting: nest reads x and recurses, or stops; on the way back
// every return writes x. Inside A's one transaction that is read^n write^m
// with m <= n (a run may stop before all calls return): two writes need two
// nested calls, and no read ever follows a write.
//
//	0 -b-> 1 -call(push 1)-> 2                     A: atomic { call nest }
//	2 -r0/push 0-> 2,  2 -skip-> 6                 nest: read x; call nest | stop
//	6 -w0/pop 0-> 6,   6 -return(pop 1)-> 3 -e-> 4 write x per return
func TestPushdownCounting(t *testing.T) {
	a := &model.Automaton{
		Out: [][]model.Edge{
			{{To: 1, Ev: ev("b")}},
			{{To: 2, Ev: ev("s"), Stack: model.StackPush, Sym: 1}},
			{{To: 2, Ev: ev("r0"), Stack: model.StackPush, Sym: 0}, {To: 6, Ev: ev("s")}},
			{{To: 4, Ev: ev("e")}},
			nil,
			nil,
			{{To: 6, Ev: ev("w0"), Stack: model.StackPop, Sym: 0}, {To: 3, Ev: ev("s"), Stack: model.StackPop, Sym: 1}},
		},
		InTxn: []bool{false, true, true, true, false, false, true},
		Held:  make([][]int32, 7),
	}
	p, err := Extract(a, 1)
	require.NoError(t, err)
	require.True(t, p.Has(Profile{KindSame, lt("r0"), lt("w0")}))
	require.True(t, p.Has(Profile{KindSame, lt("r0"), lt("r0")}))
	require.True(t, p.Has(Profile{KindSame, lt("w0"), lt("w0")}))
	require.False(t, p.Has(Profile{KindSame, lt("w0"), lt("r0")}))
	require.Equal(t, pdaOracle(t, a, 1), rel(p))
	b, err := Extract(boundedStack(a, 2), 1) // the call and one nested call
	require.NoError(t, err)
	require.True(t, b.Has(Profile{KindSame, lt("r0"), lt("w0")}))
	require.False(t, b.Has(Profile{KindSame, lt("w0"), lt("w0")}))
}

// TestPushdownDeepCall: the access pair lies behind d nested calls (each
// pushes a different symbol, and only the innermost reaches the accesses),
// so no run with fewer than d symbols on the stack has it.
func TestPushdownDeepCall(t *testing.T) {
	const d = 40
	a := &model.Automaton{Out: make([][]model.Edge, d+5), InTxn: make([]bool, d+5), Held: make([][]int32, d+5)}
	for i := 0; i < d; i++ {
		a.Out[i] = []model.Edge{{To: int32(i + 1), Ev: ev("s"), Stack: model.StackPush, Sym: int32(i)}}
	}
	// d -b-> d+1 -r0-> d+2 -w1-> d+3 -e-> d+4
	for k, tok := range []string{"b", "r0", "w1", "e"} {
		a.Out[d+k] = []model.Edge{{To: int32(d + k + 1), Ev: ev(tok)}}
	}
	for q := d + 1; q <= d+3; q++ {
		a.InTxn[q] = true
	}
	want := Profile{KindSame, lt("r0"), lt("w1")}
	p, err := Extract(a, 2)
	require.NoError(t, err)
	require.True(t, p.Has(want))
	b, err := Extract(boundedStack(a, d-1), 2)
	require.NoError(t, err)
	require.False(t, b.Has(want), "a bounded stack cannot see it")
	path, ia, ib, ok, err := PushdownPath(a, want)
	require.NoError(t, err)
	require.True(t, ok)
	replayPDA(t, a, want, path, ia, ib)
	require.Len(t, path, d+3)
}

// TestPushdownMatchesOracles compares the saturation, on random pushdown
// systems, with two independent computations: the product saturation of
// PushdownPath per candidate profile (whose every path is replayed), and
// the finite extraction on the bounded-stack unfolding (equal once the
// bound is generous for systems this small).
func TestPushdownMatchesOracles(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	nonEmpty, deep := 0, 0
	for i := 0; i < 1000; i++ {
		nvars := 1 + r.Intn(2)
		n := 1 + r.Intn(6)
		a := randomPDA(r, n, n+r.Intn(3*n+1), nvars, 1+r.Intn(2))
		p, err := ExtractPushdown(a, nvars)
		require.NoError(t, err)
		require.Equal(t, pdaOracle(t, a, nvars), rel(p), "case %d", i)
		b, err := Extract(boundedStack(a, 8), nvars)
		require.NoError(t, err)
		require.Equal(t, rel(b), rel(p), "case %d", i)
		if p.Count() > 0 {
			nonEmpty++
		}
		s, err := Extract(boundedStack(a, 1), nvars)
		require.NoError(t, err)
		if s.Count() < p.Count() {
			deep++ // a case where two or more stack symbols matter
		}
	}
	t.Logf("%d cases with profiles, %d need a stack of 2 or more", nonEmpty, deep)
	require.Greater(t, nonEmpty, 300)
	require.Greater(t, deep, 20)
}

// TestPushdownFiniteAgrees: on a finite automaton the saturation is a
// slower dataflow, with the same answer as Extract.
func TestPushdownFiniteAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for i := 0; i < 300; i++ {
		nvars := 1 + r.Intn(3)
		n := 1 + r.Intn(8)
		a := randomAuto(r, n, r.Intn(3*n+1), nvars)
		want, err := Extract(a, nvars)
		require.NoError(t, err)
		got, err := ExtractPushdown(a, nvars)
		require.NoError(t, err)
		require.Equal(t, want, got, "case %d", i)
	}
}

// TestPushdownWide: more than 32 variables, so sets take two words.
func TestPushdownWide(t *testing.T) {
	a := stacker()
	for q := range a.Out {
		for i := range a.Out[q] {
			if e := &a.Out[q][i]; e.Ev.Op.IsAccess() {
				e.Ev.Target += 40
			}
		}
	}
	p, err := Extract(a, 42)
	require.NoError(t, err)
	require.True(t, p.Has(Profile{KindSame, LetterOf(ev("r40")), LetterOf(ev("w41"))}))
	require.Equal(t, 5, p.Count())
}

func TestPushdownErrors(t *testing.T) {
	a := stacker()
	a.Init = 9
	_, err := ExtractPushdown(a, 2)
	require.Error(t, err)
	_, _, _, _, err = PushdownPath(a, Profile{})
	require.Error(t, err)
	a = stacker()
	a.Out[2][0].Ev.Target = 5
	_, err = ExtractPushdown(a, 2)
	require.ErrorContains(t, err, "variable 5")
	a = stacker()
	a.Out[2][0].To = 12
	_, _, _, _, err = PushdownPath(a, Profile{})
	require.ErrorContains(t, err, "missing state")
}

func TestPushdownSync(t *testing.T) {
	a := stacker()
	a.Out[2][0].Ev = model.Event{Op: model.OpAcquire, Target: 0} // only after a push
	p, err := ExtractPushdown(a, 2)
	require.NoError(t, err)
	require.True(t, p.Sync)
	a.Out[1] = a.Out[1][1:] // no push: the acquire never happens
	p, err = ExtractPushdown(a, 2)
	require.NoError(t, err)
	require.False(t, p.Sync)
}
