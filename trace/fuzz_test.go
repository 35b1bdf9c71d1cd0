package trace

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzReader: the reader never panics, every error it returns for bad
// input is an *Error carrying a line within the input, and every event
// names ids its tables know.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"T|begin\nT|r(x)|1\nT|end\n",
		"0|fork(1)\n1|acq(@0B)|18\n1|acq(@0B)\n1|rel(@0B)\n1|rel(@0B)\n0|join(1)\n",
		"T|rd(x)\n", "|", "T|r(\n", "T|w()|\r\n", "T|end\n", "a|b|c|d\n\n\n", "T|r(x)\rT|w(x)\r",
		"T|racq(m)\nU|racq(m)\nT|rrel(m)\nU|acq(m)\n", "T|post(d)\nU|wait(d)\nT|post(d)\n", "T|wait()\nT|racq(m\n", "T|give(s)\nU|take(s)\nU|take(s)\n",
	} {
		for _, orderings := range []bool{false, true} {
			f.Add(s, false, orderings)
			f.Add(s, true, orderings)
		}
	}
	f.Fuzz(func(t *testing.T, src string, lenient, orderings bool) {
		r, err := NewReader(strings.NewReader(src), "f.std", Options{Lenient: lenient, BufSize: 16, Orderings: orderings})
		if err != nil {
			return // e.g. a gzip header that does not parse
		}
		// Line ends are "\n", "\r\n" and a lone "\r".
		lines := int64(strings.Count(src, "\n") + strings.Count(src, "\r") - strings.Count(src, "\r\n") + 1)
		for {
			e, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var te *Error
				if errors.As(err, &te) && (te.Line < 1 || te.Line > lines) {
					t.Fatalf("error line %d outside 1..%d: %v", te.Line, lines, err)
				}
				return
			}
			if e.Line < 1 || e.Line > lines || int(e.Thread) >= r.Threads().Len() || int(e.Loc) >= r.Locs().Len() ||
				e.Op.IsExtension() && !orderings || e.Op.HasTarget() && r.TargetName(e) == "" {
				t.Fatalf("bad event %+v", e)
			}
		}
	})
}
