package report

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// TestNamingCases: numeric ids read "Tn" unless a thread is named "Tn"
// for one of them; then every numeric id reads as it is.
func TestNamingCases(t *testing.T) {
	for _, c := range []struct {
		names, want []string
	}{
		{[]string{"0", "1", "main"}, []string{"T0", "T1", "main"}},
		{[]string{"1", "T1"}, []string{"1", "T1"}},
		{[]string{"0", "1", "T1"}, []string{"0", "1", "T1"}},
		{[]string{"1", "T2"}, []string{"T1", "T2"}},    // no thread 2: T2 is no one's Tn
		{[]string{"01", "T1"}, []string{"T01", "T1"}},  // "01" reads T01, not T1
		{[]string{"01", "T01"}, []string{"01", "T01"}}, // but T01 is taken
		{[]string{"T", "", "T0x", "0"}, []string{"T", "", "T0x", "T0"}},
		{nil, nil},
	} {
		n := NamingOf(c.names)
		var got []string
		for _, s := range c.names {
			got = append(got, n.Thread(s))
		}
		require.Equal(t, c.want, got, "%q", c.names)
	}
	require.Equal(t, "T7", Naming{}.Thread("7"), "the zero Naming is the T form")
}

// TestNamingIsInjective: on random sets of thread names, drawn from names
// that collide under the T form, no two threads get one prose name, and a
// report without a collision keeps the T form (a brute-force check of the
// rule: "Tn" is taken exactly when some thread is named so).
func TestNamingIsInjective(t *testing.T) {
	pool := []string{"0", "1", "2", "10", "01", "T0", "T1", "T2", "T10", "T", "T01", "x", "", "t1"}
	rng := rand.New(rand.NewPCG(15, 15))
	for range testflag.N(2000, 50000) {
		var names []string
		seen := map[string]bool{}
		for range 1 + rng.IntN(6) {
			if s := pool[rng.IntN(len(pool))]; !seen[s] {
				seen[s] = true
				names = append(names, s)
			}
		}
		n := NamingOf(names)
		collide := false
		for _, s := range names {
			collide = collide || numeric(s) && seen["T"+s]
		}
		prose := map[string]string{}
		for _, s := range names {
			p := n.Thread(s)
			if other, ok := prose[p]; ok {
				t.Fatalf("%q: threads %q and %q both read %q", names, other, s, p)
			}
			prose[p] = s
			switch {
			case numeric(s) && !collide:
				require.Equal(t, "T"+s, p, "%q", names)
			default:
				require.Equal(t, s, p, "%q", names)
			}
		}
	}
}
