package trace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// --lenient counts what it skips by kind, with the first skipped line, in
// every tier: malformed lines and locations, and each kind of line no
// execution can produce.
func TestLenientCountsByKind(t *testing.T) {
	lead := strings.Repeat("T|w(x)|1\n", 20) // long enough for the fast tiers
	src := lead + "T|rd(x)\n" +              // 21: malformed op
		"U|rel(m)\n" + // 22: rel of a lock not held
		"T|acq(m)\nU|acq(m)\n" + // 24: acq of a lock T holds
		"U|end\n" + // 25: end without begin
		"T|fork(U)\nT|fork(T)\n" + // 26, 27: fork after start, of itself
		"T|join(V)\nV|r(x)\n" + // 29: after V's join
		"T|r(x)|a|b\n" + // 30: malformed location
		"T|rel(m)\n"
	var want Stats
	want.Skipped[SkipMalformed] = 2
	want.Skipped[SkipRelease] = 1
	want.Skipped[SkipAcquire] = 1
	want.Skipped[SkipEnd] = 1
	want.Skipped[SkipForkJoin] = 2
	want.Skipped[SkipAfterJoin] = 1
	for _, m := range allTiers {
		o := readOutcome(t, src, Options{Lenient: true}, m)
		require.Empty(t, o.Err)
		require.Equal(t, want.Skipped, o.Stats.Skipped, "tiers %d", m)
		require.Equal(t, int64(8), o.Stats.SkippedLines())
		require.Equal(t, int64(21), o.Stats.FirstSkipped)
		o = readOutcome(t, src, Options{}, m)
		require.Equal(t, `t.std:21: malformed op "rd(x)" in "T|rd(x)": `+validOps, o.Err)
		require.Equal(t, Stats{}.Skipped, o.Stats.Skipped)
	}
	require.Equal(t, "release_not_held", SkipRelease.String())
	require.Equal(t, "end without begin", SkipEnd.Words())
}
