package view

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/trace"
)

func reader(t testing.TB, text string) *trace.Reader {
	t.Helper()
	r, err := trace.NewReader(strings.NewReader(text), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	return r
}

func check(t testing.TB, text string, o Options) Result {
	t.Helper()
	res, err := Check(context.Background(), reader(t, text), o)
	require.NoError(t, err)
	return res
}

// conflictSerializable is the trace monitor's verdict on text.
func conflictSerializable(t testing.TB, text string, lockEdges bool) bool {
	t.Helper()
	o := pass.Options{}
	o.LockEdges = lockEdges
	res, err := pass.Check(context.Background(), reader(t, text), o)
	require.NoError(t, err)
	return !res.Violation
}

// orderIndices maps a witness order onto the reference's transactions.
func orderIndices(t testing.TB, ref bTrace, res Result, text string) []int {
	t.Helper()
	at := map[string]int{}
	for k, tx := range ref.txns {
		at[fmt.Sprintf("%s@%d", tx.thread, tx.begin)] = k
	}
	var order []int
	for _, tx := range res.Order {
		k, ok := at[fmt.Sprintf("%s@%d", res.Threads[tx.Thread], tx.Begin)]
		require.True(t, ok, "the order names a transaction the trace has not, %+v\n%s", tx, text)
		order = append(order, k)
	}
	return order
}

// agree checks Check's answer on text against the reference: the
// verdict, and a serializable answer's order by replaying it.
func agree(t testing.TB, text string, ref bTrace, res Result) {
	t.Helper()
	want := ref.bruteVSR()
	require.NotEqual(t, Unknown, res.Verdict, "unknown (%s) on\n%s", res.Reason, text)
	require.Equal(t, want, res.Verdict == Serializable, "verdict %v (stage %s) on\n%s", res.Verdict, res.Decided, text)
	if res.Verdict == Serializable {
		order := orderIndices(t, ref, res, text)
		require.NoError(t, ref.respects(order), "order %v on\n%s", order, text)
		require.True(t, ref.viewsOf(order).equal(ref.viewsOf(nil)), "the order %v is not view-equivalent on\n%s", order, text)
		return
	}
	require.NotEmpty(t, res.Why, "a violation without an obstacle on\n%s", text)
	n := res.Names()
	for _, o := range res.Why {
		require.NotEmpty(t, n.Words(o))
	}
}

// TestAgainstBrute: thousands of random small traces, blind writes
// frequent, decided against every serial order; every witness order
// replays; every conflict-serializable trace is view-serializable.
func TestAgainstBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 29))
	counts := map[string]int{}
	for i := range testflag.N(1500, 30000) {
		threads, vars := 2+rng.IntN(3), 1+rng.IntN(3)
		text := genTrace(rng, threads, vars, 6+rng.IntN(12), 7)
		if i%2 == 1 {
			text = genShaped(rng, threads, 1+rng.IntN(3), 3+rng.IntN(5))
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		ref := parseRef(text, false)
		res := check(t, text, Options{})
		agree(t, text, ref, res)
		searched := check(t, text, Options{searchOnly: true})
		agree(t, text, ref, searched)
		if searched.Decided == StageSearch {
			counts["searched "+searched.Verdict.String()]++
			if searched.Verdict == Violation {
				counts[fmt.Sprintf("obstacle %d", searched.Why[0].Kind)]++
			}
		}
		counts[res.Verdict.String()]++
		counts[string(res.Decided)]++
		counts[string(res.Decided)+" "+res.Verdict.String()]++
		if conflictSerializable(t, text, false) {
			require.Equal(t, Serializable, res.Verdict, "case %d: conflict-serializable, yet %v on\n%s", i, res.Verdict, text)
			counts["conflict-serializable"]++
		} else if res.Verdict == Serializable {
			counts["view only"]++
		}
	}
	t.Logf("%v", counts)
	for _, k := range []string{"serializable", "violation", "view only", "local", "conflict", "arcs violation", "arcs serializable", "one-variable violation", "one-variable serializable", "searched violation", "searched serializable"} {
		require.Greater(t, counts[k], testflag.N(1500, 30000)/100, "too few %q: %v", k, counts)
	}
}
