package trace

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
)

// outcome is everything a Reader tells about a trace: its events, its
// error, its counters and its tables.
type outcome struct {
	Events                     []Event
	Err                        string
	Stats                      Stats
	Threads, Vars, Locks, Locs []string
}

// tiers is which of the reader's paths a test lets decide lines: the
// byte-wise parser only, or the fast tiers too with quickLines in Go
// (portable) or as it runs on this machine (native: assembly on amd64).
type tiers int

const (
	bytewise tiers = iota
	portable
	native
)

var allTiers = []tiers{bytewise, portable, native}

func (m tiers) set(r *Reader) { r.bytewise, r.portable = m == bytewise, m == portable }

func readOutcome(t testing.TB, src string, opts Options, m tiers) outcome {
	r, err := NewReader(strings.NewReader(src), "t.std", opts)
	require.NoError(t, err)
	m.set(r)
	var o outcome
	evs := make([]Event, 3)
	for {
		n, err := r.Read(evs)
		o.Events = append(o.Events, evs[:n]...)
		if err != nil {
			if err != io.EOF {
				o.Err = err.Error()
			}
			break
		}
	}
	o.Stats = r.Stats()
	o.Threads, o.Vars, o.Locks, o.Locs = r.Threads().Names(), r.Vars().Names(), r.Locks().Names(), r.Locs().Names()
	require.Equal(t, int64(len(o.Events)), r.EventsRead())
	return o
}

// requireSamePaths: the one-pass scanner, with quickLines in Go and in
// assembly, and the byte-wise parser agree on src, strict and lenient,
// with a large buffer and with one so small that lines are cut by its end.
func requireSamePaths(t testing.TB, src string) {
	for _, opts := range []Options{{}, {Lenient: true}, {BufSize: 16}, {BufSize: 16, Lenient: true}} {
		want := readOutcome(t, src, opts, bytewise)
		for _, m := range []tiers{portable, native} {
			got := readOutcome(t, src, opts, m)
			require.Equal(t, want, got, "%+v tiers %d %q", opts, m, src)
		}
	}
}

// randomLine joins pieces that the scanner treats specially: short and
// long names, ')' and '|' inside arguments, empty fields, locations with
// bars, carriage returns, and near-miss opcodes.
func randomLine(rng *rand.Rand) string {
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	thread := pick("T", "T1", "0", "1", "main", "Thread-1", "a-long-thread-name", "T\r", "", "12345678")
	op := pick("r(", "w(", "acq(", "rel(", "fork(", "join(", "begin", "end", "rd(", "beginx", "r", "ac", "", "endd", "jo(")
	name := ""
	if strings.HasSuffix(op, "(") {
		name = pick("x", "x1", "@02[0]", "a)b", "a|b", "", "12345678", "123456789", "0", "1", "(", "T", "T1",
			"null.sor/SOR.Gtotal_D", "l", "x\r", "1234567")
		if rng.IntN(50) == 0 { // NULs; the second makes the table odd (an eighth byte of 1 to 7): rare, so the quick path still runs
			name = pick("x\x00", "ab\x00\x00\x00\x00\x00\x02", "T\x00")
		}
		name += pick(")", ")", ")", "", ")x")
	}
	loc := pick("", "", "|", "|12", "|0", "|a|b", "|\r", "|Foo.java:1:2", "|123456789012",
		"|a\tb", "|\x01", "|12\x7f", "|12345678\x1b", "|1\r2")
	end := pick("\n", "\n", "\n", "\r\n", "\r\r\n", "\n\n", " \t\n", "\r", "\n\r")
	if rng.IntN(20) == 0 {
		return pick("|", "\n", "a|b|c|d", "T|", "T|r(x") + end
	}
	return thread + "|" + op + name + loc + end
}

// strayBytes are the bytes the random tests drop anywhere in a trace: the
// separators, line ends and control characters the tiers must agree on.
const strayBytes = "|()\n\r0x\t\x01\x7f"

// Random lines, odd ones included: 1,500 traces with CONC_LONG=1, 300 in
// the quick suite.
func TestScannerAgreesWithParser(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range testflag.N(300, 1500) {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(randomLine(rng))
		}
		// Repeated, so that threads and names are known and lines are
		// long enough for quickLines too.
		src := []byte(strings.Repeat(b.String(), 4))
		for range rng.IntN(3) { // a stray special byte anywhere
			src[rng.IntN(len(src))] = strayBytes[rng.IntN(len(strayBytes))]
		}
		if rng.IntN(3) == 0 {
			src = bytes.TrimSuffix(src, []byte("\n"))
		}
		requireSamePaths(t, string(src))
	}
}

// The generator's traces (what the benchmarks read) take the same path
// through both.
func TestScannerAgreesOnGen(t *testing.T) {
	requireSamePaths(t, genText(t, GenOptions{Seed: 3, Events: 20000, Threads: 6, Vars: 300, Locks: 5, TxnLen: 6,
		Unprotected: 0.1, Unary: 0.2, Nested: 0.2, Writes: 0.3, Fork: true}))
}

// With RAPID's decimal locations (short, long, with a leading zero), long
// names, and now and then a carriage return, so that quickLines, fastLine
// and parse all take turns on one trace.
func TestScannerAgreesOnLocations(t *testing.T) {
	text := genText(t, GenOptions{Seed: 4, Events: 20000, Threads: 5, Vars: 200, Locks: 4, TxnLen: 6,
		Unprotected: 0.1, Unary: 0.2, Nested: 0.2, Writes: 0.3, Fork: true})
	requireSamePaths(t, roadRunnerShape(text, 4, true))
}

// roadRunnerShape dresses a generated trace like RoadRunner's: a decimal
// location on each line and some long field names; with odd, also lines
// without a location, locations with a leading zero or past the Locs
// table's array, and now and then a carriage return.
func roadRunnerShape(src string, seed uint64, odd bool) string {
	rng := rand.New(rand.NewPCG(seed, seed))
	var out strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			continue
		}
		// Long names, and names of about eight bytes.
		line = strings.ReplaceAll(line, "(x1", "(@03.raytracer/Vec.x1")
		line = strings.ReplaceAll(line, "(x3", "(12345x3")
		line = strings.ReplaceAll(line, "(x4", "(@04.raytracer/V.x4")
		switch c := rng.IntN(8); {
		case odd && c == 0:
		case odd && c == 1:
			line += "|007"
		case odd && c == 2:
			line += "|" + strconv.Itoa(65530+rng.IntN(20)) // around smallMax
		default:
			line += "|" + strconv.Itoa(rng.IntN(3000))
		}
		if odd && rng.IntN(50) == 0 {
			line += "\r"
		}
		out.WriteString(line + "\n")
	}
	return out.String()
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		"T|begin\nT|r(x)|1\nT|end\n", "0|fork(1)\n1|acq(@0B)|18\n1|rel(@0B)\n0|join(1)\n",
		"T|r(a)b)\n", "T|r(a|b)\n", "T|begin\r\n", "T|w(x)|\r\n", "a-long-thread-name|w(12345678)|a|b\n",
		"T|r(x)\rT|w(x)|1\r", "T|r(x)|a\x01\n", "T|r(x)|1|2\n",
		// Inner begins and ends, one end too many, in lines long enough for quickLines.
		strings.Repeat("T|begin\nT|begin|2\nT|w(x)\nT|end|2\nT|end\nT|end\nU|begin|2\n", 8),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		requireSamePaths(t, src)
		// Repeated, the input is long enough for quickLines, and its names
		// and threads are known by the second copy.
		if n := len(src); n > 0 && n < 512 {
			requireSamePaths(t, strings.Repeat(src, 1+1024/n))
		}
	})
}

// A lock interned from outside has no owner slot until the trace names it:
// the quick path leaves its first acq to fastLine, which makes one.
func TestQuickLockInternedOutside(t *testing.T) {
	src := strings.Repeat("T|begin\nT|acq(m)\nT|w(x)\nT|rel(m)\nT|end\n", 100)
	for _, m := range allTiers {
		r, evs := readInterned(t, src, Options{}, m, func(r *Reader) { r.Locks().Intern("m") })
		require.Len(t, evs, 500)
		require.Equal(t, model.OpAcquire, evs[1].Op)
		require.Equal(t, int32(0), evs[1].Target)
		require.Equal(t, []string{"m"}, r.Locks().Names())
	}
}

// A name interned from outside with a '|' (which no line can give) turns
// the quick path off rather than let it read "r(a|b)" as that name.
func TestScannerOddNames(t *testing.T) {
	src := strings.Repeat("T|w(b)\nT|r(a|b)\n", 20)
	for _, m := range allTiers {
		r, evs := readInterned(t, src, Options{Lenient: true}, m, func(r *Reader) { r.Vars().Intern("a|b") })
		require.Len(t, evs, 20)
		require.Equal(t, int64(20), r.Stats().SkippedLines())
		require.Equal(t, []string{"a|b", "b"}, r.Vars().Names())
	}
}

// Likewise a name with a '\r', which ends a line: "r(a\rb)" is two bad
// lines, not a read of that name.
func TestScannerOddNamesCR(t *testing.T) {
	src := strings.Repeat("T|w(b)\nT|r(a\rb)\n", 20)
	for _, m := range allTiers {
		r, evs := readInterned(t, src, Options{Lenient: true}, m, func(r *Reader) { r.Vars().Intern("a\rb") })
		require.Len(t, evs, 20, "tiers %d", m)
		require.Equal(t, int64(40), r.Stats().SkippedLines())
	}
}

// readInterned reads src in one batch with the tiers m, after intern has
// put names into the reader's tables.
func readInterned(t *testing.T, src string, opts Options, m tiers, intern func(*Reader)) (*Reader, []Event) {
	r, err := NewReader(strings.NewReader(src), "t.std", opts)
	require.NoError(t, err)
	m.set(r)
	intern(r)
	evs := make([]Event, 1000)
	n, err := r.Read(evs)
	require.NoError(t, err)
	return r, evs[:n]
}
