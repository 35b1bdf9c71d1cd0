package trace

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The agreement tests hold the three tiers to the same answers, which they
// would also do with the fast ones switched off. So: on a usual trace the
// quick path takes nearly every line, and fastLine nearly every other one
// that it is shown (new names, locations, nesting, forks, joins).
func TestFastTiersTakeTheUsualLines(t *testing.T) {
	text := genText(t, GenOptions{Seed: 5, Events: 20_000, Threads: 8, Vars: 300, Locks: 4, TxnLen: 6,
		Unprotected: 0.05, Unary: 0.3, Nested: 0.1, Writes: 0.3, Fork: true})
	for _, src := range []string{text, roadRunnerShape(text, 1, false)} {
		r, err := NewReader(strings.NewReader(src), "t.std", Options{})
		require.NoError(t, err)
		evs := make([]Event, 64)
		quick, fast, slow := 0, 0, 0
		for {
			if n := r.quickLines(evs); n > 0 {
				quick += n
				continue
			}
			if _, emit, ok := r.fastLine(&evs[0]); ok {
				if emit {
					r.stats.Events++
					fast++
				}
				continue
			}
			err := r.next(&evs[0])
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			slow++
		}
		total := quick + fast + slow
		t.Logf("quick %d, fastLine %d, parse %d", quick, fast, slow)
		require.Equal(t, int(r.stats.Events), total)
		require.Greater(t, quick, total*3/4, "quickLines takes the usual lines")
		require.Greater(t, fast, slow, "fastLine takes most of the others")
	}
}
