package global

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// configs are the hand tests' reduction settings: the plain product,
// each reduction alone, and all of them.
var configs = map[string]config{
	"plain":     {},
	"prefilter": {prefilter: true},
	"subsets":   {subsets: true},
	"local":     {local: true},
	"por":       {por: true},
	"compact":   {compact: true},
	"all":       allReductions,
}

// checkGlobal runs the engine under cfg and verifies any witness.
func checkGlobal(t *testing.T, p *model.Program, opts engines.Options, cfg config) engines.Result {
	t.Helper()
	res, err := decide(context.Background(), p, opts, cfg)
	require.NoError(t, err)
	require.Equal(t, "global", res.Engine)
	if res.Verdict == engines.Violation {
		require.NoError(t, verify.Witness(p, res.Witness))
		require.Equal(t, opts.LockEdges, res.Witness.LockEdges)
	}
	return res
}

func TestGlobalHandBuilt(t *testing.T) {
	cases := []struct {
		name      string
		specs     []string
		lockEdges bool
		want      engines.Verdict
	}{
		{"figure 1", []string{"b r:x r:y e", "b w:x w:y e"}, false, engines.Violation},
		{"serial", []string{"b r:x e", "b w:x e"}, false, engines.Serializable},
		{"locks protect", []string{"acq:m b r:x w:x e rel:m", "acq:m b r:x w:x e rel:m"}, false, engines.Serializable},
		{"locks split", []string{"b acq:m r:x rel:m acq:m w:x rel:m e", "b acq:m w:x rel:m e"}, false, engines.Violation},
		{"lock edges only", []string{"b acq:m rel:m r:y e", "b acq:m rel:m w:y e"}, true, engines.Violation},
		{"no lock edges", []string{"b acq:m rel:m r:y e", "b acq:m rel:m w:y e"}, false, engines.Serializable},
		{"three threads", []string{"b r:x w:y e", "b r:y w:z e", "b r:z w:x e"}, false, engines.Violation},
		{"loop", []string{"@ 0>1 b; 1>2 r:x; 2>3 r:x; 3>0 e", "b w:x e"}, false, engines.Violation},
		{"loop locked", []string{"@ 0>1 acq:m; 1>2 b; 2>3 r:x; 3>4 r:x; 4>5 e; 5>0 rel:m", "acq:m b w:x e rel:m"}, false, engines.Serializable},
		{"fork order", []string{"b w:x w:x e fork:T2", "b r:x r:x e"}, false, engines.Serializable},
		{"fork late", []string{"b w:x e fork:T2 b w:x e", "b r:x r:x e"}, false, engines.Violation},
		{"join order", []string{"join:T2 b r:x r:x e", "b w:x e"}, false, engines.Serializable},
		{"join inside", []string{"b r:x join:T2 r:x e", "b w:x e"}, false, engines.Violation},
		{"fork edges", []string{"b fork:T2 r:x e", "b w:x e"}, true, engines.Violation},
	}
	for _, c := range cases {
		for name, cfg := range configs {
			p := enginetest.BuildProg(t, c.specs...)
			res := checkGlobal(t, p, engines.Options{LockEdges: c.lockEdges}, cfg)
			require.Equal(t, c.want, res.Verdict, "%s under %s: %v", c.name, name, res.Reason)
			if !cfg.prefilter {
				require.Positive(t, res.Stats.States, "%s under %s", c.name, name)
			}
		}
	}
}

// TestGlobalRecursiveWithLocks: recursion with locks is undecidable, so the
// search is bounded; a violation is still found, and a serializable program
// whose stack grows without bound ends Unknown with the bound named.
func TestGlobalRecursiveWithLocks(t *testing.T) {
	rec := "@ 0>1 b; 1>2 r:x; 2>3 r:x; 3>0 e; 0>4 skip/push:d; 4>0 acq:m; 0>5 rel:m/pop:d; 5>0 skip"
	p := enginetest.BuildProg(t, rec, "acq:m b w:x e rel:m")
	res := checkGlobal(t, p, engines.Options{MaxStack: 3}, allReductions)
	require.Equal(t, engines.Violation, res.Verdict)

	safe := "@ 0>1 skip/push:d; 1>2 acq:m; 2>3 b; 3>4 r:x; 4>5 r:x; 5>6 e; 6>7 rel:m; 7>0 skip"
	p = enginetest.BuildProg(t, safe, "acq:m b w:x e rel:m")
	for _, cfg := range []config{{}, allReductions} {
		res = checkGlobal(t, p, engines.Options{MaxStack: 3}, cfg)
		require.Equal(t, engines.Unknown, res.Verdict)
		require.Equal(t, "recursive threads with locks (undecidable); no violation within --max-stack 3", res.Reason)
	}
}

// TestGlobalLimits: --max-states and the deadline end the search Unknown.
func TestGlobalLimits(t *testing.T) {
	p := enginetest.BuildProg(t, "b r:x e b r:x e b r:x e b r:x e", "b r:x e b r:x e b r:x e b r:x e", "b r:x e b r:x e b r:x e")
	res := checkGlobal(t, p, engines.Options{MaxStates: 10}, config{})
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Contains(t, res.Reason, "--max-states 10")
	require.Equal(t, int64(11), res.Stats.States)

	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	res, err := decide(ctx, p, engines.Options{}, config{})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Contains(t, res.Reason, "timeout")
}

func TestGlobalBadProgram(t *testing.T) {
	e, err := engines.Lookup("global")
	require.NoError(t, err)
	res, err := e.Check(context.Background(), &model.Program{}, engines.Options{})
	require.NoError(t, err, "a program without threads is valid (docs/spec.md §5)")
	require.Equal(t, engines.Serializable, res.Verdict)
	bad := enginetest.BuildProg(t, "b r:x e")
	bad.Threads[0].Auto.Out[0][0].To = 99
	require.Error(t, e.Supports(bad, engines.Options{}))
}

// TestLineFutureMatchesDense: the occurrence-list futures of straight-line
// threads answer exactly as the per-state fixpoint tables.
func TestLineFutureMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 200 {
		p := enginetest.BuildProg(t, globalForkJoinSpecs(r)...)
		sv, sl := sharedTargets(p)
		fa := newAlphabet(p, sv, sl)
		for _, th := range p.Threads {
			a := th.Auto
			order := a.PostOrder(true)
			d := &denseFut{fa: fa, base: futureFixpoint(fa, a, order, -1)}
			for _, l := range fa.refined {
				d.before = append(d.before, futureFixpoint(fa, a, order, l))
			}
			line := newLineFut(fa, a)
			for q := range int32(a.NumStates()) {
				for x := range int32(fa.words * 64) {
					held := []bool(nil)
					// Only a shared lock can be held by another thread.
					if len(p.Locks) > 0 && fa.refinedOf[0] >= 0 && r.IntN(2) == 0 {
						held = []bool{r.IntN(2) == 0}
					}
					require.Equal(t, d.has(q, x, held), line.has(q, x, held), "state %d letter %d held %v", q, x, held)
				}
			}
		}
	}
}

// TestGlobalLimitsInsideAChain: a chain of local moves can run for
// millions of moves between stored states, so --max-states (as
// stepsPerState moves a state) and the deadline stop it from within.
func TestGlobalLimitsInsideAChain(t *testing.T) {
	private := strings.Repeat("b w:y e ", 4000) // y is the thread's own: local moves
	p := enginetest.BuildProg(t, private+"b r:x w:x e", "b r:x w:x e", "b w:z e")
	res := checkGlobal(t, p, engines.Options{MaxStates: 1}, config{local: true})
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Contains(t, res.Reason, "chained local moves")
	require.LessOrEqual(t, res.Stats.States, int64(1), "no state is stored after the chain stopped")

	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	res, err := decide(ctx, p, engines.Options{}, config{local: true})
	require.NoError(t, err)
	require.Equal(t, engines.Unknown, res.Verdict)
	require.Contains(t, res.Reason, "timeout")
	// The root's own chain is the long one: stopped inside it, the search
	// stored no state (push would also see the deadline, at the first).
	require.Zero(t, res.Stats.States, "the deadline stopped the chain, not the first push")
}
