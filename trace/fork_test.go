package trace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A thread is forked at most once, before any event of its own and before
// any join of it (docs/spec.md §3): a second fork (by the same thread or
// another) and a fork after a join are errors with their line, in every
// tier, and --lenient skips them as bad_fork_join. Read as it stands,
// each of these traces would have predict's engines answer serializable
// for a trace whose observed order is not, or fail.
func TestReaderForksAThreadOnce(t *testing.T) {
	lead := strings.Repeat("T0|w(x)|1\n", 20) // long enough for the fast tiers
	cases := []struct{ src, msg string }{
		{"T2|fork(T3)\nT2|fork(T3)\nT2|begin\nT2|r(x)\nT3|w(x)\nT2|r(x)\n",
			"t.std:22: fork(T3) of a thread already forked at line 21"},
		{"T1|fork(T0b)\nT2|fork(T0b)\nT0b|r(x)\n",
			"t.std:22: fork(T0b) of a thread already forked at line 21"},
		{"T1|join(T9)\nT0|begin\nT1|begin\nT0|w(x)\nT1|w(x)\nT0|r(x)\nT1|fork(T9)\n",
			"t.std:27: fork(T9) after thread T9's join"},
		{"T1|fork(T9)\nT1|join(T9)\nT1|fork(T9)\n",
			"t.std:23: fork(T9) after thread T9's join"},
	}
	for _, c := range cases {
		src := lead + c.src
		for _, m := range allTiers {
			o := readOutcome(t, src, Options{}, m)
			require.Equal(t, c.msg, o.Err, "tiers %d\n%s", m, c.src)
			o = readOutcome(t, src, Options{Lenient: true}, m)
			require.Empty(t, o.Err)
			require.Equal(t, int64(1), o.Stats.Skipped[SkipForkJoin], "tiers %d\n%s", m, c.src)
			require.Equal(t, int64(1), o.Stats.SkippedLines())
		}
	}
}

// What the rule leaves alone: a join of a thread with no events and no
// fork (it did nothing the trace shows), two joins of one thread, by one
// thread or two, and a fork and join of a thread with no events.
func TestReaderJoinsOfQuietThreads(t *testing.T) {
	for _, src := range []string{
		"T1|join(T9)\nT1|w(x)\n",
		"T1|fork(T2)\nT2|r(x)\nT1|join(T2)\nT3|join(T2)\nT1|join(T2)\n",
		"T1|fork(T2)\nT1|join(T2)\n",
	} {
		for _, m := range allTiers {
			o := readOutcome(t, src, Options{}, m)
			require.Empty(t, o.Err, src)
			require.Equal(t, int64(strings.Count(src, "\n")), o.Stats.Events, src)
		}
	}
}
