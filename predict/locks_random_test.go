package predict

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
)

// lockHeavyTrace is a random locked trace for the lock-set checks: up to
// five locks, critical sections nested two deep and sometimes released out
// of order, sections still open at the end (a prefix), fork trees; and in
// half of them T0 first takes and drops 62 locks of its own, so that the
// shared locks' ids straddle lockset's 64 (a lock beyond is not tracked).
func lockHeavyTrace(r *rand.Rand) (src string, big bool) {
	g := pairGen{r: r, vars: 1 + r.IntN(4), locks: 1 + r.IntN(5)}
	src = g.trace(2+r.IntN(3), 16+r.IntN(64))
	if r.IntN(2) == 0 {
		return src, false
	}
	var b strings.Builder
	for l := range 62 {
		fmt.Fprintf(&b, "T0|acq(f%d)\nT0|rel(f%d)\n", l, l)
	}
	return b.String() + src, true
}

// TestFirstPassLockSets: the lock sets the first pass keeps (threadSum.held)
// are Eraser's, computed here from the test's own projection (its Held per
// state): per thread and letter, the locks held at every access with the
// letter, restricted to ids below 64; none for a letter the thread does
// not use. 200 traces in the quick suite, 4,000 with CONC_LONG=1.
func TestFirstPassLockSets(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 3))
	n := testflag.N(200, 4000)
	bigHeld := 0 // accesses holding a lock of id 64 or more
	for c := range n {
		src, _ := lockHeavyTrace(r)
		p := newTestPredictor(t, src, Options{})
		prog := projectionOf(t, src)
		for th, thr := range prog.Threads {
			want := eraserSets(thr.Auto, &bigHeld)
			for l := range profiles.Letter(2 * len(prog.Vars)) {
				require.Equal(t, want[l], p.s.Threads[th].HeldAt(l), "case %d: thread %d letter %d\n%s", c, th, l, src)
			}
		}
	}
	t.Logf("%d accesses held a lock beyond the 64 tracked", bigHeld)
	require.Greater(t, bigHeld, n/10)
}

// eraserSets is, per letter, the intersection of the locks (below 64) held
// at a thread's accesses with it; big counts accesses holding a lock at or
// beyond 64.
func eraserSets(a *model.Automaton, big *int) map[profiles.Letter]proj.LockSet {
	out := map[profiles.Letter]proj.LockSet{}
	for q, es := range a.Out {
		if len(es) == 0 || !es[0].Ev.Op.IsAccess() {
			continue
		}
		var now proj.LockSet
		for _, l := range a.Held[q] {
			if l < 64 {
				now |= 1 << l
			} else {
				*big++
			}
		}
		l := profiles.Letter(2 * es[0].Ev.Target)
		if es[0].Ev.Op == model.OpWrite {
			l++
		}
		if old, ok := out[l]; ok {
			now &= old
		}
		out[l] = now
	}
	return out
}

// TestLockDoomOnlyRefusedVaried is TestLockDoomOnlyRefused on
// lockHeavyTrace's traces (non-nested sections, open sections, lock ids
// past 64, fork trees with joins), both semantics: every normal run the
// lock check stops is refused by verify. It also counts the refused runs
// the check lets through (it is a sufficient test, not an exact one).
// 200 traces in the quick suite, 4,000 with CONC_LONG=1.
func TestLockDoomOnlyRefusedVaried(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 4))
	n := testflag.N(200, 4000)
	found, doomed, missed := 0, 0, 0
	for c := range n {
		src, _ := lockHeavyTrace(r)
		o := Options{}
		o.Check.LockEdges = c%2 == 1
		p := newTestPredictor(t, src, o)
		pl, ok, _, err := p.lockFreeFor(false)
		require.NoError(t, err)
		_, okLocked, dc, err := p.lockFreeFor(true)
		require.NoError(t, err)
		require.Equal(t, ok, okLocked, "case %d", c)
		if !ok {
			continue
		}
		found++
		_, accepted, err := p.checked(pl, normalRunNote)
		require.NoError(t, err)
		switch {
		case dc.Doomed:
			doomed++
			require.False(t, accepted, "case %d: a doomed normal run replays\n%s", c, src)
		case !accepted:
			missed++
		}
	}
	t.Logf("%d of %d traces with a normal run: %d doomed, %d refused without", found, n, doomed, missed)
	require.Greater(t, doomed, found/20)
}
