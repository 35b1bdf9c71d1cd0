package brute

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/graph"
	"github.com/conc-dev/conc/verify"
)

// randomStraight writes k random straight-line thread specs of minEvents to
// maxEvents events (maxEvents >= 3): transactions of one to three accesses
// over vars x, y, z, sometimes inside or around a critical section of lock m
// or n.
func randomStraight(r *rand.Rand, k, minEvents, maxEvents int) []string {
	specs := make([]string, k)
	for t := range specs {
		want := minEvents + r.Intn(maxEvents-minEvents+1)
		var toks []string
		for tries := 0; len(toks) < want && tries < 20; tries++ {
			if txn := randomTxn(r); len(toks)+len(txn) <= maxEvents {
				toks = append(toks, txn...)
			}
		}
		if len(toks) == 0 {
			toks = []string{"b", "w:x", "e"}
		}
		specs[t] = strings.Join(toks, " ")
	}
	return specs
}

func randomTxn(r *rand.Rand) []string {
	var body []string
	for n := 1 + r.Intn(3); n > 0; n-- {
		body = append(body, []string{"r:", "w:"}[r.Intn(2)]+[]string{"x", "y", "z"}[r.Intn(3)])
	}
	lock := []string{"m", "n"}[r.Intn(2)]
	switch r.Intn(6) {
	case 0: // a critical section inside the transaction
		cut := r.Intn(len(body) + 1)
		inner := append([]string{"acq:" + lock}, body[:cut]...)
		body = append(append(inner, "rel:"+lock), body[cut:]...)
		return append(append([]string{"b"}, body...), "e")
	case 1: // the transaction inside a critical section
		return append(append([]string{"acq:" + lock, "b"}, body...), "e", "rel:"+lock)
	}
	return append(append([]string{"b"}, body...), "e")
}

// exhaustive decides p by enumerating every lock-valid interleaving of its
// straight-line threads, with no memo, no reduction and no subsumption:
// the reference for brute's search.
func exhaustive(p *model.Program, lockEdges bool) bool {
	k := len(p.Threads)
	pos := make([]int32, k)
	owner := make([]int32, len(p.Locks))
	for l := range owner {
		owner[l] = -1
	}
	var rec func(g *graph.Graph) bool
	rec = func(g *graph.Graph) bool {
		for t := 0; t < k; t++ {
			out := p.Threads[t].Auto.Out[pos[t]]
			if len(out) == 0 {
				continue
			}
			ev := out[0].Ev
			if ev.Op == model.OpAcquire && owner[ev.Target] >= 0 ||
				ev.Op == model.OpRelease && owner[ev.Target] != int32(t) {
				continue
			}
			old := owner
			owner = append([]int32(nil), owner...)
			switch ev.Op {
			case model.OpAcquire:
				owner[ev.Target] = int32(t)
			case model.OpRelease:
				owner[ev.Target] = -1
			}
			pos[t]++
			h := g.Clone()
			cyc, _ := h.Step(model.Step{Thread: int32(t), Ev: ev})
			found := cyc != nil || rec(h)
			pos[t]--
			owner = old
			if found {
				return true
			}
		}
		return false
	}
	return rec(graph.New(lockEdges))
}

// TestBruteAgainstExhaustive compares brute with plain enumeration on random
// straight-line programs with locks (140 in the quick suite, 700 with
// CONC_LONG=1), and verifies every witness.
func TestBruteAgainstExhaustive(t *testing.T) {
	size := testflag.N(140, 700)
	r := rand.New(rand.NewSource(3))
	var violations, serializable int
	for n := 0; n < size; n++ {
		specs := randomStraight(r, 2, 3, 7)
		if n%3 == 1 {
			specs = randomStraight(r, 3, 3, 4)
		}
		lockEdges := n%3 == 0
		p := enginetest.BuildProg(t, specs...)
		want := exhaustive(p, lockEdges)
		res, err := Check(context.Background(), p, engines.Options{LockEdges: lockEdges})
		require.NoError(t, err)
		require.NotEqual(t, engines.Unknown, res.Verdict, "straight-line programs within the bounds: %q", specs)
		require.Equal(t, want, res.Verdict == engines.Violation, "program %d (seed 3) lockEdges=%v: %q", n, lockEdges, specs)
		if want {
			require.NoError(t, verify.Witness(p, res.Witness), "%q", specs)
			violations++
		} else {
			serializable++
		}
	}
	require.Greater(t, violations, size*3/14) // 150 of 700
	require.Greater(t, serializable, size*3/14)
}

// TestBruteRandomSpeed runs brute on thousands of random programs of 2-5
// threads with 4-8 events each, as the differential tests of the other
// engines will; each must take milliseconds. 500 programs in the quick
// suite, 2,000 with CONC_LONG=1.
func TestBruteRandomSpeed(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	var states int64
	n := testflag.N(500, 2000)
	for i := 0; i < n; i++ {
		specs := randomStraight(r, 2+r.Intn(4), 4, 8)
		res := runBrute(t, enginetest.BuildProg(t, specs...), engines.Options{LockEdges: i%2 == 0})
		require.NotEqual(t, engines.Unknown, res.Verdict, "%q", specs)
		states += res.Stats.States
	}
	t.Logf("%d programs, %d states", n, states)
}

func BenchmarkBrute(b *testing.B) {
	r := rand.New(rand.NewSource(5))
	var progs []*model.Program
	for i := 0; i < 100; i++ {
		progs = append(progs, enginetest.BuildProg(b, randomStraight(r, 2+r.Intn(4), 4, 8)...))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Check(context.Background(), progs[i%len(progs)], engines.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
