package trace

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// named is an event spelled out, as LinesAt and a Reader each see it.
type named struct{ thread, op, target, loc string }

// readerNamed are the events a Reader makes of std, by line.
func readerNamed(t *testing.T, std []byte, name string) map[int64]named {
	r, err := NewReader(bytes.NewReader(std), name, Options{Lenient: true, BufSize: 64})
	require.NoError(t, err)
	got := map[int64]named{}
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		n := named{thread: r.Threads().Name(ev.Thread), op: OpName[ev.Op], target: targetName(r, ev)}
		if ev.Loc >= 0 {
			n.loc = r.Locs().Name(ev.Loc)
		}
		got[ev.Line] = n
	}
	return got
}

func targetName(r *Reader, ev Event) string {
	switch OpName[ev.Op] {
	case "r", "w":
		return r.Vars().Name(ev.Target)
	case "acq", "rel":
		return r.Locks().Name(ev.Target)
	case "fork", "join":
		return r.Threads().Name(ev.Target)
	}
	return ""
}

// linesNamed are linesAt's fields of the lines asked for, read with a
// first buffer of size bytes.
func linesNamed(t *testing.T, std []byte, name string, lines map[int64]named, size int) map[int64]named {
	var want []int64
	for l := range lines {
		want = append(want, l)
	}
	slices.Sort(want)
	got := map[int64]named{}
	err := linesAt(context.Background(), bytes.NewReader(std), name, nextOf(want),
		func(l int64, f Fields) {
			got[l] = named{string(f.Thread), OpName[f.Op], string(f.Target), string(f.Loc)}
		}, size)
	require.NoError(t, err)
	return got
}

// LinesAt names the events at the lines asked for as a Reader does, on
// every line end (\n, \r\n, a lone \r), blank lines, lines without a
// location, nested begins, gzip input, and random generated traces, with
// buffers small enough to cut lines and line ends (\r|\n) anywhere.
func TestLinesAtAgreesWithReader(t *testing.T) {
	hand := "T1|begin|a\r\nT1|r(x)|b.java:3\r\nT2|w(x)\n\nT2|acq(m)|d\rT2|rel(m)|\rT1|fork(T3)|f\nT3|w(y)|g\nT1|join(T3)|h\nT1|end"
	inputs := []string{hand}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range testflag.N(20, 300) {
		var b bytes.Buffer
		o := GenOptions{Seed: uint64(i), Events: int64(10 + rng.IntN(200)), Threads: 1 + rng.IntN(4), Vars: 1 + rng.IntN(5),
			Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(4), Nested: 0.3, Unary: 0.3, Fork: rng.IntN(2) == 0}
		_, err := NewGen(o).WriteTo(&b)
		require.NoError(t, err)
		inputs = append(inputs, b.String())
	}
	for i, in := range inputs {
		for _, gz := range []bool{false, true} {
			std, name := []byte(in), fmt.Sprintf("t%d.std", i)
			if gz {
				var z bytes.Buffer
				w := gzip.NewWriter(&z)
				_, _ = w.Write(std)
				require.NoError(t, w.Close())
				std, name = z.Bytes(), name+".gz"
			}
			want := readerNamed(t, std, name)
			require.NotEmpty(t, want)
			for _, size := range []int{1, 7, 64, 1 << 20} {
				require.Equal(t, want, linesNamed(t, std, name, want, size), "%s, buffer %d", name, size)
			}
		}
	}
}

// LinesAt keeps the caller's budget: with the context ended it reads
// nothing and says why.
func TestLinesAtKeepsTheBudget(t *testing.T) {
	std := []byte(strings.Repeat("T1|w(x)|a\n", 20000))
	stop := errors.New("memory budget exceeded")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	n := 0
	err := LinesAt(ctx, bytes.NewReader(std), "t.std", func(l int64) int64 { return (l + 1) % 20001 }, func(int64, Fields) { n++ })
	require.ErrorIs(t, err, stop)
	require.Zero(t, n)
}

// nextOf is LinesAt's next over sorted lines.
func nextOf(lines []int64) func(int64) int64 {
	return func(after int64) int64 {
		i, ok := slices.BinarySearch(lines, after)
		if ok {
			i++
		}
		if i == len(lines) {
			return 0
		}
		return lines[i]
	}
}

// Asked for some of the event lines only (every k-th, with k up to 300,
// so that whole blocks are skipped), LinesAt hands over those alone.
func TestLinesAtSkips(t *testing.T) {
	var b bytes.Buffer
	_, err := NewGen(GenOptions{Seed: 3, Events: 5000, Threads: 3, Vars: 4, Locks: 1, TxnLen: 3, Nested: 0.2, Unary: 0.3}).WriteTo(&b)
	require.NoError(t, err)
	all := readerNamed(t, b.Bytes(), "t.std")
	var lines []int64
	for l := range all {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	for _, k := range []int{1, 2, 7, 40, 300} {
		want := map[int64]named{}
		for i := k - 1; i < len(lines); i += k {
			want[lines[i]] = all[lines[i]]
		}
		for _, size := range []int{1, 100, 1 << 20} {
			require.Equal(t, want, linesNamed(t, b.Bytes(), "t.std", want, size), "every %d, buffer %d", k, size)
		}
	}
}

// A gzip stream cut short is damage, not the trace's end: LinesAt says so
// rather than handing over fewer lines than were asked for.
func TestLinesAtReportsATruncatedStream(t *testing.T) {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	_, err := w.Write([]byte(strings.Repeat("T1|w(x)|a\n", 20000)))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	cut := z.Bytes()[:z.Len()/2]
	n := 0
	err = LinesAt(context.Background(), bytes.NewReader(cut), "t.std.gz", func(l int64) int64 { return (l + 1) % 20001 }, func(int64, Fields) { n++ })
	require.Error(t, err)
	require.Less(t, n, 20000)
}
