package engines

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// globalConfigs are the hand tests' reduction settings: the plain product,
// each reduction alone, and all of them.
var globalConfigs = map[string]globalConfig{
	"plain":     {},
	"prefilter": {prefilter: true},
	"subsets":   {subsets: true},
	"local":     {local: true},
	"por":       {por: true},
	"compact":   {compact: true},
	"all":       globalAll,
}

// checkGlobal runs the engine under cfg and verifies any witness.
func checkGlobal(t *testing.T, p *model.Program, opts Options, cfg globalConfig) Result {
	t.Helper()
	res, err := globalRun(context.Background(), p, opts, cfg)
	require.NoError(t, err)
	require.Equal(t, "global", res.Engine)
	if res.Verdict == Violation {
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
		want      Verdict
	}{
		{"figure 1", []string{"b r:x r:y e", "b w:x w:y e"}, false, Violation},
		{"serial", []string{"b r:x e", "b w:x e"}, false, Serializable},
		{"locks protect", []string{"acq:m b r:x w:x e rel:m", "acq:m b r:x w:x e rel:m"}, false, Serializable},
		{"locks split", []string{"b acq:m r:x rel:m acq:m w:x rel:m e", "b acq:m w:x rel:m e"}, false, Violation},
		{"lock edges only", []string{"b acq:m rel:m r:y e", "b acq:m rel:m w:y e"}, true, Violation},
		{"no lock edges", []string{"b acq:m rel:m r:y e", "b acq:m rel:m w:y e"}, false, Serializable},
		{"three threads", []string{"b r:x w:y e", "b r:y w:z e", "b r:z w:x e"}, false, Violation},
		{"loop", []string{"@ 0>1 b; 1>2 r:x; 2>3 r:x; 3>0 e", "b w:x e"}, false, Violation},
		{"loop locked", []string{"@ 0>1 acq:m; 1>2 b; 2>3 r:x; 3>4 r:x; 4>5 e; 5>0 rel:m", "acq:m b w:x e rel:m"}, false, Serializable},
		{"fork order", []string{"b w:x w:x e fork:T2", "b r:x r:x e"}, false, Serializable},
		{"fork late", []string{"b w:x e fork:T2 b w:x e", "b r:x r:x e"}, false, Violation},
		{"join order", []string{"join:T2 b r:x r:x e", "b w:x e"}, false, Serializable},
		{"join inside", []string{"b r:x join:T2 r:x e", "b w:x e"}, false, Violation},
		{"fork edges", []string{"b fork:T2 r:x e", "b w:x e"}, true, Violation},
	}
	for _, c := range cases {
		for name, cfg := range globalConfigs {
			p := buildProg(t, c.specs...)
			res := checkGlobal(t, p, Options{LockEdges: c.lockEdges}, cfg)
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
	p := buildProg(t, rec, "acq:m b w:x e rel:m")
	res := checkGlobal(t, p, Options{MaxStack: 3}, globalAll)
	require.Equal(t, Violation, res.Verdict)

	safe := "@ 0>1 skip/push:d; 1>2 acq:m; 2>3 b; 3>4 r:x; 4>5 r:x; 5>6 e; 6>7 rel:m; 7>0 skip"
	p = buildProg(t, safe, "acq:m b w:x e rel:m")
	for _, cfg := range []globalConfig{{}, globalAll} {
		res = checkGlobal(t, p, Options{MaxStack: 3}, cfg)
		require.Equal(t, Unknown, res.Verdict)
		require.Equal(t, "recursive threads with locks (undecidable); no violation within --max-stack 3", res.Reason)
	}
}

// TestGlobalLimits: --max-states and the deadline end the search Unknown.
func TestGlobalLimits(t *testing.T) {
	p := buildProg(t, "b r:x e b r:x e b r:x e b r:x e", "b r:x e b r:x e b r:x e b r:x e", "b r:x e b r:x e b r:x e")
	res := checkGlobal(t, p, Options{MaxStates: 10}, globalConfig{})
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "--max-states 10")
	require.Equal(t, int64(11), res.Stats.States)

	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	res, err := globalRun(ctx, p, Options{}, globalConfig{})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "timeout")
}

func TestGlobalBadProgram(t *testing.T) {
	e, err := Lookup("global")
	require.NoError(t, err)
	res, err := e.Check(context.Background(), &model.Program{}, Options{})
	require.NoError(t, err, "a program without threads is valid (docs/spec.md §5)")
	require.Equal(t, Serializable, res.Verdict)
	bad := buildProg(t, "b r:x e")
	bad.Threads[0].Auto.Out[0][0].To = 99
	require.Error(t, e.Supports(bad, Options{}))
}

// TestLineFutureMatchesDense: the occurrence-list futures of straight-line
// threads answer exactly as the per-state fixpoint tables.
func TestLineFutureMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 200 {
		p := buildProg(t, globalForkJoinSpecs(r)...)
		sv, sl := globalShared(p)
		fa := newFutAlphabet(p, sv, sl)
		for _, th := range p.Threads {
			a := th.Auto
			order := a.PostOrder(true)
			d := &denseFut{fa: fa, base: futFixpoint(fa, a, order, -1)}
			for _, l := range fa.refined {
				d.before = append(d.before, futFixpoint(fa, a, order, l))
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
// globalStepsPerState moves a state) and the deadline stop it from within.
func TestGlobalLimitsInsideAChain(t *testing.T) {
	private := strings.Repeat("b w:y e ", 4000) // y is the thread's own: local moves
	p := buildProg(t, private+"b r:x w:x e", "b r:x w:x e", "b w:z e")
	res := checkGlobal(t, p, Options{MaxStates: 1}, globalConfig{local: true})
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "chained local moves")
	require.LessOrEqual(t, res.Stats.States, int64(1), "no state is stored after the chain stopped")

	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	res, err := globalRun(ctx, p, Options{}, globalConfig{local: true})
	require.NoError(t, err)
	require.Equal(t, Unknown, res.Verdict)
	require.Contains(t, res.Reason, "timeout")
	// The root's own chain is the long one: stopped inside it, the search
	// stored no state (push would also see the deadline, at the first).
	require.Zero(t, res.Stats.States, "the deadline stopped the chain, not the first push")
}
