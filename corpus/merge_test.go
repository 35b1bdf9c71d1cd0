package corpus

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// randomSummaries draws n one-trace summaries over few signatures (so
// that groups meet, in one trace too) and few lines (so that examples tie
// on the line).
// It returns them as CheckTrace makes them (traceSummary) and raw, each
// group as the trace's report has it.
func randomSummaries(rng *rand.Rand, n int) (out, raw []*Summary) {
	for i := range n {
		name := fmt.Sprintf("t%02d.std", rng.IntN(3*n)) // drawn, not in order
		name = fmt.Sprintf("%s-%d", name, i)            // unique
		row := Trace{Name: name, Verdict: Verdicts[rng.IntN(len(Verdicts))]}
		var groups []Group
		for range rng.IntN(4) {
			sig := fmt.Sprintf("w x%d | r x%d", rng.IntN(3), rng.IntN(2))
			groups = append(groups, Group{Kind: Kinds[rng.IntN(2)], Signature: sig, Count: 1 + rng.Int64N(5), Traces: 1,
				Ex: Example{Trace: name, Line: 1 + rng.Int64N(4), Signature: sig + fmt.Sprint(rng.IntN(2)), Explanation: []string{name}}})
		}
		raw = append(raw, &Summary{Command: "monitor", Flags: "--lock-edges", Traces: []Trace{row}, Groups: groups})
		out = append(out, traceSummary("monitor", "--lock-edges", row, groups))
	}
	return out, raw
}

// referenceMerge is the merge by its definition, over the raw groups of
// every trace at once: per (kind, signature) the sum of the counts, the
// number of distinct traces, and the example of the least (trace, line,
// own signature) found by a scan.
func referenceMerge(parts []*Summary) *Summary {
	ref := &Summary{Command: parts[0].Command, Flags: parts[0].Flags, Traces: []Trace{}, Groups: []Group{}}
	for _, p := range parts {
		ref.Traces = append(ref.Traces, p.Traces...)
	}
	slices.SortFunc(ref.Traces, func(a, b Trace) int { return compareStrings(a.Name, b.Name) })
	var keys [][2]string
	for _, p := range parts {
		for _, g := range p.Groups {
			if k := [2]string{g.Kind, g.Signature}; !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		if c := compareStrings(a[0], b[0]); c != 0 {
			return c
		}
		return compareStrings(a[1], b[1])
	})
	for _, k := range keys {
		var sum Group
		var traces []string
		first := true
		for _, p := range parts {
			for _, g := range p.Groups {
				if g.Kind != k[0] || g.Signature != k[1] {
					continue
				}
				x := g.Ex
				if first || x.Trace < sum.Ex.Trace || x.Trace == sum.Ex.Trace && (x.Line < sum.Ex.Line ||
					x.Line == sum.Ex.Line && x.Signature < sum.Ex.Signature) {
					sum.Ex = x
				}
				first = false
				sum.Kind, sum.Signature = g.Kind, g.Signature
				sum.Count += g.Count
				if !slices.Contains(traces, g.Ex.Trace) {
					traces = append(traces, g.Ex.Trace)
				}
			}
		}
		sum.Traces = len(traces)
		ref.Groups = append(ref.Groups, sum)
	}
	return ref
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// split cuts s into random consecutive parts after shuffling.
func split(rng *rand.Rand, parts []*Summary) [][]*Summary {
	parts = slices.Clone(parts)
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	var out [][]*Summary
	for len(parts) > 0 {
		k := 1 + rng.IntN(len(parts))
		out = append(out, parts[:k])
		parts = parts[k:]
	}
	return out
}

// mergeTree merges the parts in a random tree: each part merged on its
// own, then the results merged in a random order, pairwise.
func mergeTree(t *testing.T, rng *rand.Rand, parts [][]*Summary) *Summary {
	var level []*Summary
	for _, p := range parts {
		m := NewMerger()
		for _, s := range p {
			require.NoError(t, m.Add(s))
		}
		level = append(level, m.Summary())
	}
	for len(level) > 1 {
		i := rng.IntN(len(level) - 1)
		a, b := level[i], level[i+1]
		if rng.IntN(2) == 0 {
			a, b = b, a
		}
		m, err := Merge(a, b)
		require.NoError(t, err)
		level = append(append(level[:i:i], m), level[i+2:]...)
	}
	return level[0]
}

// The merge against its definition: any split of the summaries, merged
// part by part and then pairwise in any order and either way round
// (associativity, commutativity), gives the reference's summary, and its
// file the same bytes. The draws make groups meet in several traces and
// examples tie on their line (asserted).
func TestMergeIsTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	met, tied := 0, 0
	for range testflag.N(300, 3000) {
		parts, raw := randomSummaries(rng, 1+rng.IntN(8))
		ref := referenceMerge(raw)
		var want bytes.Buffer
		require.NoError(t, Write(&want, ref))
		for range 3 {
			got := mergeTree(t, rng, split(rng, parts))
			require.Equal(t, ref, got)
			var b bytes.Buffer
			require.NoError(t, Write(&b, got))
			require.Equal(t, want.String(), b.String())
		}
		for _, g := range ref.Groups {
			if g.Traces > 1 {
				met++
			}
		}
		lines := map[string]int{}
		for _, p := range raw {
			for _, g := range p.Groups {
				lines[fmt.Sprint(g.Kind, g.Signature, g.Ex.Line)]++
			}
		}
		for _, n := range lines {
			if n > 1 {
				tied++
			}
		}
	}
	require.Greater(t, met, 100, "groups met in several traces")
	require.Greater(t, tied, 100, "examples tied on their line")
}

// The merge refuses what would make wrong counts: another command or
// other flags, and a trace twice.
func TestMergeRefuses(t *testing.T) {
	a := &Summary{Command: "monitor", Traces: []Trace{{Name: "a.std", Verdict: "violation"}}}
	b := &Summary{Command: "monitor", Flags: "--lock-edges", Traces: []Trace{{Name: "b.std", Verdict: "violation"}}}
	_, err := Merge(a, b)
	require.EqualError(t, err, `summaries of different runs: "monitor" and "monitor --lock-edges"`)
	_, err = Merge(a, &Summary{Command: "predict --all", Traces: []Trace{{Name: "b.std", Verdict: "violation"}}})
	require.ErrorContains(t, err, "different runs")
	_, err = Merge(a, a)
	require.EqualError(t, err, "trace a.std is in two summaries")
}

// The corpus's verdict is the worst of its traces', errors worst, a
// violation over an unknown.
func TestVerdictOrder(t *testing.T) {
	of := func(vs ...string) string {
		s := &Summary{}
		for i, v := range vs {
			s.Traces = append(s.Traces, Trace{Name: fmt.Sprint(i), Verdict: v})
		}
		return s.Verdict()
	}
	require.Equal(t, "serializable", of())
	require.Equal(t, "serializable", of("serializable", "serializable"))
	require.Equal(t, "unknown", of("serializable", "unknown"))
	require.Equal(t, "violation", of("unknown", "violation", "serializable"))
	require.Equal(t, "error", of("violation", "error", "unknown"))
}
