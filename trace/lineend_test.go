package trace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lostUpdate is a trace whose T2 writes x between T1's read and write.
const lostUpdate = "T1|begin|1\nT1|r(x)|2\nT2|w(x)|3\nT1|w(x)|4\nT1|end|5\n"

// A lone '\r' ends a line (old Mac files), as "\n" and "\r\n" do, in every
// tier and wherever the buffer cuts the text: the same events on the same
// lines. Before, a '\r'-only file was one line, and its first LOC field
// swallowed the rest of the trace.
func TestLineEndsAgree(t *testing.T) {
	want := ""
	for _, end := range []string{"\n", "\r\n", "\r"} {
		src := strings.ReplaceAll(lostUpdate, "\n", end)
		for _, size := range []int{0, 1, 2, 3, 5, 7, 11, 16} {
			for _, m := range allTiers {
				r, err := NewReader(strings.NewReader(src), "t.std", Options{BufSize: size})
				require.NoError(t, err)
				m.set(r)
				evs := make([]Event, 16)
				n, err := r.Read(evs)
				require.NoError(t, err, "%q", end)
				got := show(r, evs[:n])
				if want == "" {
					want = got
				}
				require.Equal(t, want, got, "line end %q, buffer %d, tiers %d", end, size, m)
				require.Equal(t, int64(5), r.Stats().Lines, "line end %q, buffer %d", end, size)
			}
		}
	}
	require.Equal(t, "T1 begin @1 :1\nT1 read x @2 :2\nT2 write x @3 :3\nT1 write x @4 :4\nT1 end @5 :5\n", want)
}

// Line ends mixed in one file: "\r\r\n" is a lone '\r' and then "\r\n", so
// a blank line between; a trailing lone '\r' ends the last line; a '\r'
// inside a name splits the line, and the halves are bad lines.
func TestLineEndsMixed(t *testing.T) {
	r, evs, err := readAll(t, "T|r(x)\rT|w(x)\r\r\nT|r(y)\n\rT|w(y)\r", Options{})
	require.NoError(t, err)
	require.Equal(t, "T read x :1\nT write x :2\nT read y :4\nT write y :6\n", show(r, evs))
	for _, c := range []struct{ src, msg string }{
		{"T|r(x\ry)\n", `t.std:1: malformed op "r(x" in "T|r(x": ` + validOps},
		{"T|r(x)\nT\r|w(x)\n", `t.std:2: malformed line "T": want THREAD|OP|LOC`},
		{"T|begin|1\rT|end|2\r\rT|end|4\r", "t.std:4: end without begin"},
	} {
		for _, m := range allTiers {
			o := readOutcome(t, strings.Repeat("T|w(x)|1\n", 30)+c.src, Options{}, m)
			require.Equal(t, shiftLine(c.msg, 30), o.Err, "%q tiers %d", c.src, m)
		}
	}
}

// shiftLine adds n to the line number of a "t.std:LINE: msg" error.
func shiftLine(msg string, n int64) string {
	rest := strings.TrimPrefix(msg, "t.std:")
	i := strings.IndexByte(rest, ':')
	line := int64(0)
	for _, c := range rest[:i] {
		line = 10*line + int64(c-'0')
	}
	return "t.std:" + itoa(line+n) + rest[i:]
}

// The last line may lack its line end: taken if it parses, else an error
// with its number (an uncompressed trace cut short cannot be told from one
// written without a final newline, but a half line is still bad input).
func TestLastLineWithoutLineEnd(t *testing.T) {
	lead := strings.Repeat("T|w(x)|1\n", 30)
	for _, size := range []int{0, 7} {
		for _, m := range allTiers {
			o := readOutcome(t, lead+"T|r(x)|2", Options{BufSize: size}, m)
			require.Empty(t, o.Err)
			require.Len(t, o.Events, 31)
			require.Equal(t, int64(31), o.Events[30].Line)
			o = readOutcome(t, lead+"T|r(x", Options{BufSize: size}, m)
			require.Equal(t, `t.std:31: malformed op "r(x" in "T|r(x": `+validOps, o.Err, "tiers %d", m)
			o = readOutcome(t, lead+"T|r(x)|2\r", Options{BufSize: size}, m)
			require.Empty(t, o.Err)
			require.Len(t, o.Events, 31)
		}
	}
}
