package brute

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/graph"
)

// randomAutomaton writes a random automaton spec (buildProg's "@" form)
// whose states have fixed attributes (inside a transaction or not, lock m
// held or not), so begin/end and acquire/release are consistent on every
// path, as lang guarantees. Epsilon edges may push or pop symbol d.
func randomAutomaton(r *rand.Rand) string {
	n := 3 + r.Intn(3)
	inTxn, held := make([]bool, n), make([]bool, n)
	for q := 1; q < n; q++ {
		inTxn[q], held[q] = r.Intn(3) > 0, r.Intn(4) == 0
	}
	var edges []string
	for q := 0; q < n; q++ {
		for k := 1 + r.Intn(3); k > 0; k-- {
			to := r.Intn(n)
			if label := randomLabel(r, inTxn[q], inTxn[to], held[q], held[to]); label != "" {
				edges = append(edges, fmt.Sprintf("%d>%d %s", q, to, label))
			}
		}
	}
	if len(edges) == 0 {
		edges = []string{"0>0 skip"}
	}
	return "@ " + strings.Join(edges, "; ")
}

func randomLabel(r *rand.Rand, txnA, txnB, heldA, heldB bool) string {
	switch {
	case txnA != txnB && heldA != heldB:
		return ""
	case !txnA && txnB:
		return "b"
	case txnA && !txnB:
		return "e"
	case !heldA && heldB:
		return "acq:m"
	case heldA && !heldB:
		return "rel:m"
	}
	switch n := r.Intn(10); {
	case txnA && n < 7:
		return []string{"r:", "w:"}[r.Intn(2)] + []string{"x", "x", "x", "y"}[r.Intn(4)]
	case n < 8:
		return "skip"
	case n < 9:
		return "skip/push:d"
	}
	return "skip/pop:d"
}

// localWords lists the event sequences thread t can emit with at most
// maxEvents events, maxEps epsilon moves and a stack of at most maxStack.
func localWords(a *model.Automaton, maxEvents, maxEps, maxStack int) [][]model.Event {
	seen := map[string]bool{}
	var words [][]model.Event
	var walk func(q int32, stack []int32, word []model.Event, eps int)
	walk = func(q int32, stack []int32, word []model.Event, eps int) {
		key := fmt.Sprint(word)
		if !seen[key] {
			seen[key] = true
			words = append(words, append([]model.Event(nil), word...))
		}
		for _, e := range a.Out[q] {
			st := stack
			switch e.Stack {
			case model.StackPush:
				if len(st) >= maxStack {
					continue
				}
				st = append(append([]int32(nil), st...), e.Sym)
			case model.StackPop:
				if len(st) == 0 || st[len(st)-1] != e.Sym {
					continue
				}
				st = st[:len(st)-1]
			}
			switch {
			case e.Ev.Op == model.OpSkip && eps < maxEps:
				walk(e.To, st, word, eps+1)
			case e.Ev.Op != model.OpSkip && len(word) < maxEvents:
				walk(e.To, st, append(word, e.Ev), eps)
			}
		}
	}
	walk(a.Init, nil, nil, 0)
	return words
}

// interleavingViolates reports whether some lock-valid interleaving of
// prefixes of the words has a cyclic conflict graph.
func interleavingViolates(words [][]model.Event, locks int, lockEdges bool) bool {
	pos := make([]int, len(words))
	owner := make([]int, locks)
	for l := range owner {
		owner[l] = -1
	}
	var rec func(g *graph.Graph) bool
	rec = func(g *graph.Graph) bool {
		for t, w := range words {
			if pos[t] == len(w) {
				continue
			}
			ev := w[pos[t]]
			if ev.Op == model.OpAcquire && owner[ev.Target] >= 0 || ev.Op == model.OpRelease && owner[ev.Target] != t {
				continue
			}
			saved := append([]int(nil), owner...)
			if ev.Op == model.OpAcquire {
				owner[ev.Target] = t
			} else if ev.Op == model.OpRelease {
				owner[ev.Target] = -1
			}
			pos[t]++
			h := g.Clone()
			cyc, _ := h.Step(model.Step{Thread: int32(t), Ev: ev})
			found := cyc != nil || rec(h)
			pos[t]--
			copy(owner, saved)
			if found {
				return true
			}
		}
		return false
	}
	return rec(graph.New(lockEdges))
}

// boundedViolates enumerates every combination of the threads' words.
func boundedViolates(p *model.Program, depth, eps, stack int, lockEdges bool) bool {
	var all [][][]model.Event
	for _, th := range p.Threads {
		all = append(all, localWords(th.Auto, depth, eps, stack))
	}
	choice := make([][]model.Event, len(all))
	var rec func(t int) bool
	rec = func(t int) bool {
		if t == len(all) {
			return interleavingViolates(choice, len(p.Locks), lockEdges)
		}
		for _, w := range all[t] {
			if choice[t] = w; rec(t + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

// TestBruteRegularAgainstEnumeration compares brute, on random regular and
// pushdown threads, with an enumeration of every combination of local
// words within the same bounds: a violation the enumeration finds must be
// found by brute, and a witness brute finds must respect the bounds (runBrute
// verifies it). Serializable from brute means the enumeration found nothing.
// 800 programs with CONC_LONG=1, 400 in the quick suite.
func TestBruteRegularAgainstEnumeration(t *testing.T) {
	size := testflag.N(400, 800)
	r := rand.New(rand.NewSource(6))
	counts := map[engines.Verdict]int{}
	for n := 0; n < size; n++ {
		p := enginetest.BuildProg(t, randomAutomaton(r), randomAutomaton(r))
		lockEdges := n%2 == 1
		const depth, stack = 3, 2
		res := runBrute(t, p, engines.Options{MaxDepth: depth, MaxStack: stack, LockEdges: lockEdges})
		counts[res.Verdict]++
		want := boundedViolates(p, depth, 4, stack, lockEdges)
		msg := fmt.Sprintf("program %d (seed 6): %v", n, threadSpecs(p))
		if want {
			require.Equal(t, engines.Violation, res.Verdict, msg)
		}
		if res.Verdict == engines.Serializable {
			// Serializable is a claim about runs of every length: no
			// deeper search or enumeration may find a violation.
			require.False(t, want, msg)
			deep := runBrute(t, p, engines.Options{MaxDepth: 9, MaxStack: stack, LockEdges: lockEdges})
			require.Equal(t, engines.Serializable, deep.Verdict, msg)
			require.False(t, boundedViolates(p, 4, 3, stack, lockEdges), msg)
		}
		if res.Verdict == engines.Violation {
			events := make([]int, len(p.Threads))
			for _, s := range res.Witness.Run {
				events[s.Thread]++
			}
			for _, c := range events {
				require.LessOrEqual(t, c, depth, msg)
			}
		}
	}
	require.Greater(t, counts[engines.Violation], size/20)
	require.Positive(t, counts[engines.Unknown])
	t.Logf("verdicts: %v", counts)
}

func threadSpecs(p *model.Program) []string {
	var out []string
	for _, th := range p.Threads {
		var es []string
		for q, edges := range th.Auto.Out {
			for _, e := range edges {
				es = append(es, fmt.Sprintf("%d>%d %v/%d/%d", q, e.To, e.Ev.Op, e.Stack, e.Ev.Target))
			}
		}
		out = append(out, strings.Join(es, "; "))
	}
	return out
}

// TestBruteEnumerationFindsViolations makes sure the enumeration above is
// not vacuous on a known case.
func TestBruteEnumerationFindsViolations(t *testing.T) {
	p := enginetest.BuildProg(t, "@ 0>1 b; 1>2 r:x; 2>3 r:x; 3>0 e", "@ 0>1 b; 1>2 w:x; 2>0 e")
	require.True(t, boundedViolates(p, 3, 2, 2, false))
	require.False(t, boundedViolates(p, 2, 2, 2, false))
	res, err := Check(context.Background(), p, engines.Options{MaxDepth: 3})
	require.NoError(t, err)
	require.Equal(t, engines.Violation, res.Verdict)
}
