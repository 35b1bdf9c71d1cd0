package projtest

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/testkit/ordertrace"
	"github.com/conc-dev/conc/trace"
)

// OrderedTrace is ordertrace.Events' trace as STD text.
func OrderedTrace(seed uint64, n, threads, vars, locks, msgs int) string {
	var b []byte
	for _, e := range ordertrace.Events(seed, n, threads, vars, locks, msgs) {
		b = trace.AppendSTD(b, e, trace.GenName)
	}
	return string(b)
}

// RequireKeepsOrderings checks std, a witness of the trace src written as
// STD (--witness-out), against src's orderings (docs/spec.md §3) without
// predict's code: the trace reader takes it (read holds shared, never
// with a write hold; no post after a wait), and each wait comes after
// every post of its message in src.
func RequireKeepsOrderings(t *testing.T, src, std string) {
	t.Helper()
	posts := map[string]int{}
	for _, line := range strings.Split(src, "\n") {
		if i := strings.Index(line, "|post("); i >= 0 {
			posts[line[i:]]++
		}
	}
	r, err := trace.NewReader(strings.NewReader(std), "w.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	seen := map[int32]int{}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return
		}
		require.NoError(t, err, "witness\n%s\nof\n%s", std, src)
		switch ev.Op {
		case model.OpPost:
			seen[ev.Target]++
		case model.OpWait:
			require.Equal(t, posts["|post("+r.Msgs().Name(ev.Target)+")"], seen[ev.Target],
				"a wait before every post of its message: witness\n%s\nof\n%s", std, src)
		}
	}
}
