package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/conc-dev/conc/check"
	"github.com/stretchr/testify/require"
)

// TestDefaultTimeout: without --timeout, check and predict still end, in
// unknown naming the default time budget and the flag that raises it, on
// inputs whose search takes far longer (found by an acceptance review: a
// two-transaction program of 1,000 accesses each took 29 s in the profile
// engine, a fork tree of 200 threads 20 s in predict's lock-aware search).
func TestDefaultTimeout(t *testing.T) {
	defer func(d, g time.Duration) { check.DefaultTimeout, check.TimeoutGrace = d, g }(check.DefaultTimeout, check.TimeoutGrace)
	check.DefaultTimeout, check.TimeoutGrace = 300*time.Millisecond, 50*time.Millisecond
	want := "unknown: timeout: no answer within the default time budget of 300ms (--timeout raises it)\n"

	o := conc("check", file(t, "wide.conc", wideTransactions(1000)), "--quiet")
	require.Equal(t, exitUnknown, o.code, o.stdout+o.stderr)
	require.Equal(t, want, o.stdout)

	o = conc("predict", file(t, "forks.std", forkTree(200)), "--quiet")
	require.Equal(t, exitUnknown, o.code, o.stdout+o.stderr)
	require.Equal(t, want, o.stdout)

	// A --timeout given is named as such, and lifts the default.
	o = conc("check", file(t, "wide.conc", wideTransactions(1000)), "--quiet", "--timeout", "200ms")
	require.Equal(t, exitUnknown, o.code, o.stdout+o.stderr)
	require.Equal(t, "unknown: timeout: no answer within 200ms (--timeout)\n", o.stdout)
}

// wideTransactions is two threads, one transaction each: A reads v0..vn-1,
// B writes them in the opposite order (a violation).
func wideTransactions(n int) string {
	var a, b strings.Builder
	for i := range n {
		fmt.Fprintf(&a, " read v%d;", i)
		fmt.Fprintf(&b, " write v%d;", n-1-i)
	}
	return "thread A { atomic {" + a.String() + " } }\nthread B { atomic {" + b.String() + " } }\n"
}

// forkTree is n threads forked as a binary tree from T0, each with one
// transaction reading x(t mod 7) and writing x(t+1 mod 7), joined back.
func forkTree(n int) string {
	var b strings.Builder
	for t := range n {
		for _, c := range []int{2*t + 1, 2*t + 2} {
			if c < n {
				fmt.Fprintf(&b, "T%d|fork(T%d)\n", t, c)
			}
		}
		fmt.Fprintf(&b, "T%d|begin\nT%d|r(x%d)\nT%d|w(x%d)\nT%d|end\n", t, t, t%7, t, (t+1)%7, t)
	}
	for t := n - 1; t > 0; t-- {
		fmt.Fprintf(&b, "T%d|join(T%d)\n", (t-1)/2, t)
	}
	return b.String()
}
