package trace

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// readAll reads every event of src (as a file named name).
func readAll(t testing.TB, src string, opts Options) (*Reader, []Event, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(src), "trace.std", opts)
	require.NoError(t, err)
	var evs []Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			return r, evs, nil
		}
		if err != nil {
			return r, evs, err
		}
		evs = append(evs, e)
	}
}

// show renders events with their names, one per line, for comparisons.
func show(r *Reader, evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(r.Threads().Name(e.Thread))
		b.WriteString(" " + e.Op.String())
		switch e.Op {
		case model.OpRead, model.OpWrite:
			b.WriteString(" " + r.Vars().Name(e.Target))
		case model.OpAcquire, model.OpRelease:
			b.WriteString(" " + r.Locks().Name(e.Target))
		case model.OpFork, model.OpJoin:
			b.WriteString(" " + r.Threads().Name(e.Target))
		}
		if e.Loc >= 0 {
			b.WriteString(" @" + r.Locs().Name(e.Loc))
		}
		b.WriteString(" :" + itoa(e.Line) + "\n")
	}
	return b.String()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestReaderParsesEveryOp(t *testing.T) {
	src := "main|fork(w1)|0\n" +
		"w1|begin|3\r\n" +
		"\n" +
		"w1|r(@06.sor/JGFSORBench.datasizes_\\[I)|12\n" +
		"w1|w(x)\n" +
		"w1|acq(l)|\n" +
		"w1|rel(l)|Foo.java:1:2\n" +
		"  \t\n" +
		"w1|end|3\n" +
		"main|join(w1)|0"
	r, evs, err := readAll(t, src, Options{})
	require.NoError(t, err)
	require.Equal(t, "main fork w1 @0 :1\n"+
		"w1 begin @3 :2\n"+
		"w1 read @06.sor/JGFSORBench.datasizes_\\[I @12 :4\n"+
		"w1 write x :5\n"+
		"w1 acquire l :6\n"+
		"w1 release l @Foo.java:1:2 :7\n"+
		"w1 end @3 :9\n"+
		"main join w1 @0 :10\n", show(r, evs))
	require.Equal(t, Stats{Lines: 10, Events: 8}, r.Stats())
	require.Equal(t, []string{"main", "w1"}, r.Threads().Names())
	id, ok := r.Locs().Lookup("Foo.java:1:2")
	require.True(t, ok)
	require.Equal(t, "Foo.java:1:2", r.Locs().Name(id))
}

func TestReaderNormalisesLikeRAPID(t *testing.T) {
	src := "T|begin\nT|begin\nT|acq(l)\nT|acq(l)\nT|r(x)\nT|rel(l)\nT|end\nT|rel(l)\nT|end\n"
	r, evs, err := readAll(t, src, Options{})
	require.NoError(t, err)
	require.Equal(t, "T begin :1\nT acquire l :3\nT read x :5\nT release l :8\nT end :9\n", show(r, evs))
	require.Equal(t, int64(1), r.Stats().Reentrant)
	require.Equal(t, int64(1), r.Stats().Nested)
}

func TestReaderErrorsCarryLines(t *testing.T) {
	cases := []struct{ src, msg string }{
		{"T|r(x)\nT|rd(x)\n", `trace.std:2: malformed op "rd(x)" in "T|rd(x)": ` + validOps},
		{"T|r()\n", `trace.std:1: malformed op "r()" in "T|r()": ` + validOps},
		{"T|begin|1\nTr(x)\n", `trace.std:2: malformed line "Tr(x)": want THREAD|OP|LOC`},
		{"|r(x)\n", "trace.std:1: missing thread"},
		{"T|end\n", "trace.std:1: end without begin"},
		{"T|rel(l)\n", "trace.std:1: rel(l) of a lock thread T does not hold"},
		{"T|acq(l)\nU|acq(l)\n", "trace.std:2: acq(l) of a lock held by thread T"},
		{"U|r(x)\nT|fork(U)\n", "trace.std:2: fork(U) after thread U has started"},
		{"T|join(U)\nU|r(x)\n", "trace.std:2: event of thread U after its join"},
		{"T|fork(T)\n", "trace.std:1: thread T cannot fork itself"},
		{"T|beginx\n", `trace.std:1: malformed op "beginx" in "T|beginx": ` + validOps},
	}
	for _, c := range cases {
		_, _, err := readAll(t, c.src, Options{})
		require.EqualError(t, err, c.msg, c.src)
		var te *Error
		require.ErrorAs(t, err, &te)
	}
}

func TestReaderLenientSkipsAndCounts(t *testing.T) {
	r, evs, err := readAll(t, "T|r(x)\nT|rd(x)\nT|end\nT|w(x)\n", Options{Lenient: true})
	require.NoError(t, err)
	require.Equal(t, "T read x :1\nT write x :4\n", show(r, evs))
	require.Equal(t, int64(2), r.Stats().SkippedLines())
}

// A tiny buffer forces refills and growth in the middle of lines.
func TestReaderSmallBufferAndLongLines(t *testing.T) {
	long := strings.Repeat("v", 300)
	src := "T|r(" + long + ")|7\nU|w(" + long + ")\nT|r(y)"
	r, evs, err := readAll(t, src, Options{BufSize: 8})
	require.NoError(t, err)
	require.Equal(t, "T read "+long+" @7 :1\nU write "+long+" :2\nT read y :3\n", show(r, evs))
}

func TestReaderGzipAndOpen(t *testing.T) {
	src := "T|begin\nT|w(x)\nT|end\n"
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write([]byte(src))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	dir := t.TempDir()
	for _, name := range []string{"a.std.gz", "a-gzip-without-suffix.std"} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, z.Bytes(), 0o644))
		r, err := Open(p, Options{})
		require.NoError(t, err)
		evs := make([]Event, 10)
		n, err := r.Read(evs)
		require.NoError(t, err)
		require.Equal(t, "T begin :1\nT write x :2\nT end :3\n", show(r, evs[:n]))
		_, err = r.Read(evs)
		require.Equal(t, io.EOF, err)
		require.NoError(t, r.Close())
	}
	_, err = Open(filepath.Join(dir, "missing.std"), Options{})
	require.Error(t, err)
	p := filepath.Join(dir, "bad.std.gz")
	require.NoError(t, os.WriteFile(p, []byte("not gzip"), 0o644))
	_, err = Open(p, Options{})
	require.Error(t, err)
}

// The generator's text, read back, is the generator's events with nested
// begin/end pairs flattened.
func TestGenRoundTrip(t *testing.T) {
	for seed := range uint64(6) {
		o := GenOptions{Seed: seed, Events: 5000, Threads: 5, Vars: 50, Locks: 4, TxnLen: 5,
			Unprotected: 0.1, Unary: 0.2, Nested: 0.2, Writes: 0.3, Fork: seed%2 == 0}
		genRoundTrip(t, o)
	}
}

func genRoundTrip(t *testing.T, o GenOptions) {
	var b bytes.Buffer
	_, err := NewGen(o).WriteTo(&b)
	require.NoError(t, err)
	r, err := NewReader(&b, "gen.std", Options{})
	require.NoError(t, err)
	g := NewGen(o)
	want, got := make([]Event, 1), make([]Event, 1)
	depth := map[int32]int{}
	count := 0
	for {
		n, gerr := g.Read(want)
		if w := want[0]; n == 1 && (w.Op == model.OpBegin || w.Op == model.OpEnd) {
			if w.Op == model.OpEnd {
				depth[w.Thread]--
			}
			inner := depth[w.Thread] > 0
			if w.Op == model.OpBegin {
				depth[w.Thread]++
			}
			if inner {
				continue
			}
		}
		m, rerr := r.Read(got)
		require.Equal(t, n, m)
		if gerr == io.EOF {
			require.Equal(t, io.EOF, rerr)
			break
		}
		w, e := want[0], got[0]
		require.Equal(t, GenName('T', w.Thread), r.Threads().Name(e.Thread))
		require.Equal(t, w.Op, e.Op)
		require.Equal(t, w.Line, e.Line)
		count++
	}
	require.Greater(t, count, 4000)
	require.Equal(t, 5, r.Threads().Len())
	require.Greater(t, r.Stats().Nested, int64(0))
}

func TestTableInterns(t *testing.T) {
	var tb Table
	require.Equal(t, int32(0), tb.Intern("12"))
	require.Equal(t, int32(1), tb.Intern("012"))
	require.Equal(t, int32(2), tb.Intern("x"))
	require.Equal(t, int32(0), tb.Intern("12"))
	require.Equal(t, int32(1), tb.Intern("012"))
	id, ok := tb.Lookup("12")
	require.True(t, ok)
	require.Equal(t, int32(0), id)
	require.Equal(t, 3, tb.Len())
}

func TestTargetName(t *testing.T) {
	r, err := NewReader(strings.NewReader("T1|r(x)|1\nT1|acq(l)|2\nT1|fork(T2)|3\nT1|begin|4\n"), "t.std", Options{})
	require.NoError(t, err)
	var got []string
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		got = append(got, r.TargetName(ev))
	}
	require.Equal(t, []string{"x", "l", "T2", ""}, got)
}
