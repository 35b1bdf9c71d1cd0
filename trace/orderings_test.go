package trace

import (
	"strings"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

// readOrdered reads src whole with the ordering extension, tiers m.
func readOrdered(t *testing.T, src string, m tiers) (*Reader, []Event) {
	t.Helper()
	r, err := NewReader(strings.NewReader(src), "t.std", Options{Orderings: true})
	require.NoError(t, err)
	m.set(r)
	var evs []Event
	for {
		ev, err := r.Next()
		if err != nil {
			require.Equal(t, "EOF", err.Error(), "tiers %d", m)
			return r, evs
		}
		evs = append(evs, ev)
	}
}

// showOrdered is show with the extension's targets named.
func showOrdered(r *Reader, evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(r.Threads().Name(e.Thread) + " " + OpName[e.Op])
		if name := r.TargetName(e); name != "" {
			b.WriteString("(" + name + ")")
		}
		b.WriteString(" :" + itoa(e.Line) + "\n")
	}
	return b.String()
}

// The extension's ops (docs/spec.md §3) are read under Options.Orderings,
// in every tier, with their targets in the lock and message tables; a
// re-entrant racq is dropped with its matching rrel. Without the option
// they are malformed lines, so no reader of events meets an op it does
// not honour.
func TestReaderOrderings(t *testing.T) {
	lead := strings.Repeat("T0|w(x)|1\n", 20) // long enough for the fast tiers
	src := lead + "T1|racq(m)\nT2|racq(m)|a.go:3\nT1|racq(m)\nT1|r(x)\nT1|rrel(m)\nT1|rrel(m)\nT2|rrel(m)\n" +
		"T3|acq(m)\nT3|post(done)\nT3|rel(m)\nT1|post(done)\nT2|wait(done)\nT1|wait(done)\nT2|wait(none)\n"
	want := "T1 racq(m) :21\nT2 racq(m) :22\nT1 r(x) :24\nT1 rrel(m) :26\nT2 rrel(m) :27\n" +
		"T3 acq(m) :28\nT3 post(done) :29\nT3 rel(m) :30\nT1 post(done) :31\nT2 wait(done) :32\nT1 wait(done) :33\nT2 wait(none) :34\n"
	for _, m := range allTiers {
		r, evs := readOrdered(t, src, m)
		require.Equal(t, want, showOrdered(r, evs[20:]), "tiers %d", m)
		require.Equal(t, int64(1), r.Stats().Reentrant)
		require.Equal(t, []string{"done", "none"}, r.Msgs().Names())
		o := readOutcome(t, src, Options{}, m)
		require.Equal(t, `t.std:21: ordering op "racq(m)" in "T1|racq(m)": this command does not read the ordering extension (docs/spec.md §3)`, o.Err, "tiers %d", m)
	}
}

// What no execution produces with read locks and messages is an error with
// its line, in every tier, and --lenient skips it by kind.
func TestReaderOrderingErrors(t *testing.T) {
	lead := strings.Repeat("T0|w(x)|1\n", 20)
	cases := []struct {
		src, msg string
		kind     Skip
	}{
		{"T1|racq(m)\nT2|acq(m)\n", "t.std:22: acq(m) of a lock read-held by thread T1", SkipAcquire},
		{"T1|acq(m)\nT2|racq(m)\n", "t.std:22: racq(m) of a lock held by thread T1", SkipAcquire},
		{"T1|acq(m)\nT1|racq(m)\n", "t.std:22: racq(m) of a lock held by thread T1", SkipAcquire},
		{"T1|racq(m)\nT1|rel(m)\n", "t.std:22: rel(m) of a lock thread T1 does not hold", SkipRelease},
		{"T1|racq(m)\nT2|rrel(m)\n", "t.std:22: rrel(m) of a lock thread T2 does not read-hold", SkipRelease},
		{"T1|acq(m)\nT1|rrel(m)\n", "t.std:22: rrel(m) of a lock thread T1 does not read-hold", SkipRelease},
		{"T1|racq(m)\nT1|rrel(m)\nT1|rrel(m)\n", "t.std:23: rrel(m) of a lock thread T1 does not read-hold", SkipRelease},
		{"T1|wait(d)\nT2|post(d)\n", "t.std:22: post(d) after a wait for it at line 21", SkipPost},
		{"T1|post(d)\nT2|wait(d)\nT1|post(d)\n", "t.std:23: post(d) after a wait for it at line 22", SkipPost},
		{"T1|take(s)\n", "t.std:21: take(s) of a token none gave", SkipTake},
		{"T1|give(s)\nT2|take(s)\nT1|take(s)\n", "t.std:23: take(s) of a token none gave", SkipTake},
	}
	for _, c := range cases {
		src := lead + c.src
		for _, m := range allTiers {
			o := readOutcome(t, src, Options{Orderings: true}, m)
			require.Equal(t, c.msg, o.Err, "tiers %d\n%s", m, c.src)
			o = readOutcome(t, src, Options{Orderings: true, Lenient: true}, m)
			require.Empty(t, o.Err)
			require.Equal(t, int64(1), o.Stats.Skipped[c.kind], "tiers %d\n%s", m, c.src)
			require.Equal(t, int64(1), o.Stats.SkippedLines())
		}
	}
}

// Tokens count: a take needs a give not yet taken, by any thread, in
// any order of threads; the fast tiers leave their lines to the general
// path.
func TestReaderTokens(t *testing.T) {
	src := strings.Repeat("T0|w(x)|1\n", 20) + "T1|give(s)\nT2|give(s)|a.go:9\nT3|take(s)\nT1|take(s)\nT2|give(s)\nT2|take(s)\n"
	want := "T1 give(s) :21\nT2 give(s) :22\nT3 take(s) :23\nT1 take(s) :24\nT2 give(s) :25\nT2 take(s) :26\n"
	for _, m := range allTiers {
		r, evs := readOrdered(t, src, m)
		require.Equal(t, want, showOrdered(r, evs[20:]), "tiers %d", m)
	}
}

// A lock's write hold and its read holds alternate: once its last reader
// is gone a writer may take it, in the fast tiers too (which leave a
// read-held lock to the general path).
func TestReaderReadLockFreedForWriters(t *testing.T) {
	src := strings.Repeat("T0|w(x)|1\n", 20) + "T1|racq(m)\nT2|racq(m)\nT1|rrel(m)\nT2|rrel(m)\n" +
		strings.Repeat("T3|acq(m)\nT3|w(x)\nT3|rel(m)\n", 30) + "T1|racq(m)\nT1|rrel(m)\n"
	for _, m := range allTiers {
		o := readOutcome(t, src, Options{Orderings: true}, m)
		require.Empty(t, o.Err, "tiers %d", m)
		require.Len(t, o.Events, 20+4+90+2)
		require.Equal(t, model.OpReadAcquire, o.Events[114].Op)
	}
}

// A trace whose recording stopped early ends with conc record's cut line
// (docs/spec.md §3): an error in every tier, with or without the
// orderings; --lenient skips it as its own kind and reads what came
// before.
func TestReaderCutLine(t *testing.T) {
	src := strings.Repeat("T0|w(x)|1\n", 20) + "T1|r(x)\n*|cut|the test binary stopped before closing its trace\n"
	for _, m := range allTiers {
		for _, orderings := range []bool{false, true} {
			o := readOutcome(t, src, Options{Orderings: orderings}, m)
			require.Equal(t, "t.std:22: the trace was cut: the test binary stopped before closing its trace (docs/spec.md §3); --lenient reads the events before this line", o.Err)
			o = readOutcome(t, src, Options{Orderings: orderings, Lenient: true}, m)
			require.Empty(t, o.Err)
			require.Len(t, o.Events, 21)
			require.Equal(t, int64(1), o.Stats.Skipped[SkipCut])
		}
	}
}
