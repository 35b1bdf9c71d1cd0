package trace

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// The agreement tests hold the three tiers to the same answers, which they
// would also do with the fast ones switched off. So: on a usual trace the
// quick path takes nearly every line, and fastLine nearly every other one
// that it is shown (new names, locations, forks, joins).
func TestFastTiersTakeTheUsualLines(t *testing.T) {
	text := genText(t, GenOptions{Seed: 5, Events: 20_000, Threads: 8, Vars: 300, Locks: 4, TxnLen: 6,
		Unprotected: 0.05, Unary: 0.3, Nested: 0.1, Writes: 0.3, Fork: true})
	for _, src := range []string{text, roadRunnerShape(text, 1, false)} {
		for _, m := range []tiers{portable, native} {
			quick, fast, slow := tierLines(t, src, m)
			total := quick + fast + slow
			t.Logf("tiers %d lines: quick %d, fastLine %d, parse %d", m, quick, fast, slow)
			require.Greater(t, quick, total*3/4, "quickLines takes the usual lines")
			require.Greater(t, fast, slow, "fastLine takes most of the others")
		}
	}
}

// RoadRunner's traces nest transactions deeply (every method is atomic):
// the begins and ends inside a transaction, which give no event, are
// usual lines too.
func TestQuickTakesNestedTransactions(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "T%d|begin|1\nT%[1]d|begin|2\nT%[1]d|w(x)|3\nT%[1]d|begin|4\nT%[1]d|end|4\nT%[1]d|end|2\nT%[1]d|end|1\n", i%3)
	}
	for _, m := range []tiers{portable, native} {
		quick, fast, slow := tierLines(t, b.String(), m)
		t.Logf("tiers %d lines: quick %d, fastLine %d, parse %d", m, quick, fast, slow)
		require.Equal(t, 14000, quick+fast+slow)
		require.Less(t, fast+slow, 100, "only first lines and those near a buffer's end leave quickLines")
	}
}

// tierLines reads src as Read does and counts the lines each tier
// decides; m picks quickLines's implementation.
func tierLines(t *testing.T, src string, m tiers) (quick, fast, slow int) {
	r, err := NewReader(strings.NewReader(src), "t.std", Options{})
	require.NoError(t, err)
	m.set(r)
	evs := make([]Event, 64)
	events := 0
	for {
		before := r.stats.Lines
		n := r.quickLines(evs)
		events += n
		if quick += int(r.stats.Lines - before); n > 0 {
			continue
		}
		before = r.stats.Lines
		if msg, emit, ok := r.fastLine(&evs[0]); ok {
			require.Empty(t, msg, "the reader is strict: no line of these traces is bad")
			if emit {
				r.stats.Events++
				events++
			}
			fast += int(r.stats.Lines - before)
			continue
		}
		before = r.stats.Lines
		err := r.next(&evs[0])
		slow += int(r.stats.Lines - before)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		events++
	}
	require.Equal(t, int(r.stats.Events), events)
	require.Equal(t, r.stats.Lines, int64(quick+fast+slow))
	return quick, fast, slow
}

// Names that crowd the last slots of a small index: some sit two, three or
// more slots from home, and some past the index's end, at its start. The
// quick path finds each (its two-slot read, then its loop, which wraps)
// as the byte-wise parser does; short and long names alike.
func TestQuickIndexCrowded(t *testing.T) {
	const slots = 64 // the index of a table of 16 to 32 names
	var crowd []string
	for i := 0; len(crowd) < 20; i++ {
		for _, name := range []string{fmt.Sprintf("v%d", i), fmt.Sprintf("a.long.field.name%d", i)} {
			if keyOf([]byte(name)).hash&(slots-1) >= slots-3 {
				crowd = append(crowd, name)
			}
		}
	}
	var b strings.Builder
	for round := range 6 {
		for i, name := range crowd {
			fmt.Fprintf(&b, "T%d|w(%s)\nT%[1]d|r(%s)\n", (i+round)%3, name)
		}
	}
	src := b.String()
	requireSamePaths(t, src)
	r, err := NewReader(strings.NewReader(src), "t.std", Options{})
	require.NoError(t, err)
	_, err = r.Read(make([]Event, 1000))
	require.NoError(t, err)
	require.Equal(t, slots+1, len(r.vars.index), "the crowd fits the index this test means")
	for _, m := range []tiers{portable, native} {
		quick, _, _ := tierLines(t, src, m)
		require.GreaterOrEqual(t, quick, strings.Count(src, "\n")-2*len(crowd), "the quick path takes all but first uses and the last lines")
	}
}

// A name of up to seven bytes is keyed by its bytes and length alone,
// which a longer name shares when its eighth byte is that length and the
// bytes between are NULs: "v12" and "v12\0\0\0\0\x03", "v000006" and
// "v000006\x07" (no NUL). Such a name makes the table odd, so the quick
// paths never compare such keys. The test picks names whose twin, seen
// first, takes their home slot, where the key alone would find the twin,
// as a variable and as a lock.
func TestQuickKeyTwins(t *testing.T) {
	const slots = 64 // the index of a table of 16 to 32 names
	twinOf := func(short string, tail string) (string, string) {
		for i := 0; ; i++ {
			n := fmt.Sprintf(short, i)
			tw := n + strings.Repeat("\x00", 7-len(n)) + string(rune(len(n))) + tail
			if keyOf([]byte(n)).hash%slots == keyOf([]byte(tw)).hash%slots {
				return n, tw
			}
		}
	}
	for _, shape := range [][2]string{{"v%d", ""}, {"v%06d", ""}, {"v%06d", ".long"}} {
		name, twin := twinOf(shape[0], shape[1])
		require.Equal(t, keyOf([]byte(name)).key, keyOf([]byte(twin)).key, "the keys this test is about collide")
		src := "T|w(" + twin + ")\n" + strings.Repeat("T|w("+name+")\nT|r(y)\n", 100)
		requireSamePaths(t, src)
		got := readOutcome(t, src, Options{}, native)
		require.Equal(t, []string{twin, name, "y"}, got.Vars)
		for _, e := range got.Events[1:] {
			require.Equal(t, e.Line%2 == 0, e.Target == 1, "%q line %d: %+v", name, e.Line, e)
		}
		src = "T|acq(" + twin + ")\nT|rel(" + twin + ")\n" + strings.Repeat("T|acq("+name+")\nT|w(y)\nT|rel("+name+")\n", 100)
		requireSamePaths(t, src)
		got = readOutcome(t, src, Options{}, native)
		require.Equal(t, []string{twin, name}, got.Locks)
	}
}

// usualTrace is a trace of mostly usual lines, the ones quickLines
// takes, of every shape it handles (threads of one to nine bytes, names of
// one to seventy, locks held and released in turn, nested transactions,
// locations of one to six digits), with now and then an odd line from
// randomLine, and now and then a stray special byte.
func usualTrace(rng *rand.Rand, lines int) string {
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	threads := []string{"T0", "T1", "7", "main", "Thread-9"}
	names := []string{"x", "y1", "@A38[12]", "1234567", "12345678", "123456789", "v000006", "0", "42",
		"@A39.montecarlo/ReturnPath.nPathValue_I", "null.sor/SOR.Gtotal_D", strings.Repeat("long", 17)}
	locks := []string{"l", "@0B", "lock1234", "a-long-lock-name"}
	held := map[string]string{} // lock: thread
	depth := map[string]int{}
	var b strings.Builder
	for range lines {
		t := threads[rng.IntN(len(threads))]
		var op string
		switch c := rng.IntN(10); {
		case c < 5:
			op = pick("r(", "w(") + names[rng.IntN(len(names))] + ")"
		case c < 7:
			l := locks[rng.IntN(len(locks))]
			switch held[l] {
			case "":
				op, held[l] = "acq("+l+")", t
			case t:
				op, held[l] = "rel("+l+")", ""
			default:
				op = "r(x)"
			}
		case c < 9 || depth[t] == 0:
			op = "begin"
			depth[t]++
		default:
			op = "end"
			depth[t]--
		}
		loc := ""
		if rng.IntN(3) == 0 { // mostly a few, known after their first line
			loc = "|" + strconv.Itoa(rng.IntN([]int{10, 10, 50, 50, 100000}[rng.IntN(5)]))
		}
		end := "\n"
		if rng.IntN(30) == 0 { // the other line ends: fastLine or parse takes these
			end = pick("\r", "\r\n")
		}
		b.WriteString(t + "|" + op + loc + end)
		if rng.IntN(40) == 0 {
			b.WriteString(randomLine(rng))
		}
	}
	src := []byte(b.String())
	for range rng.IntN(3) {
		src[rng.IntN(len(src))] = strayBytes[rng.IntN(len(strayBytes))]
	}
	return string(src)
}

// On traces of mostly usual lines, quickLines (the Go loop and the
// assembly) agrees with the byte-wise parser, strict and lenient. Read
// leniently (strict stops at the first odd line), it takes more than a
// third of the lines: the others are first uses, the shapes it leaves on
// purpose (a thread name of eight bytes, a lock name of eight or more, a
// name of over 64), lines near the data's end, and the odd lines. 300
// traces with CONC_LONG=1, 60 in the quick suite.
func TestQuickAgreesOnUsualLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	var quick, total [native + 1]int64
	for range testflag.N(60, 300) {
		src := usualTrace(rng, 100+rng.IntN(400))
		requireSamePaths(t, src)
		for _, m := range []tiers{portable, native} {
			q, n := quickLinesTaken(t, src, m)
			quick[m], total[m] = quick[m]+q, total[m]+n
		}
	}
	for _, m := range []tiers{portable, native} {
		t.Logf("tiers %d: quickLines took %d of %d lines", m, quick[m], total[m])
		require.Greater(t, quick[m], total[m]/3)
	}
}

// quickLinesTaken reads src leniently as Read does, and counts the lines
// quickLines decides.
func quickLinesTaken(t *testing.T, src string, m tiers) (quick, total int64) {
	r, err := NewReader(strings.NewReader(src), "t.std", Options{Lenient: true})
	require.NoError(t, err)
	m.set(r)
	evs := make([]Event, 64)
	for {
		before := r.stats.Lines
		if r.quickLines(evs); r.stats.Lines > before {
			quick += r.stats.Lines - before
			continue
		}
		if err := r.next(&evs[0]); err != nil {
			require.ErrorIs(t, err, io.EOF)
			return quick, r.stats.Lines
		}
	}
}
