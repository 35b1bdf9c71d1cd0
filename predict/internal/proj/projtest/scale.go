package projtest

import (
	"fmt"
	"strings"
)

// Traces that reach the chain search's budget.

// WritersAfter is head followed by threads T1 … T(n-1), one w(x) each.
func WritersAfter(head string, n int) string {
	var b strings.Builder
	b.WriteString(head)
	for t := 1; t < n; t++ {
		fmt.Fprintf(&b, "T%d|w(x)\n", t)
	}
	return b.String()
}

// Stuck is n-1 threads of one write to x, which chain into each other
// every way, and a transaction whose second access no chain reaches: no
// violation, and only the budget ends the search.
func Stuck(n int) string {
	return WritersAfter("T0|begin\nT0|w(x)\nT0|w(z)\nT0|end\nTz|r(z)\n", n)
}

// Ring is n threads in a ring, thread t reading x_t and writing
// x_t+1 in one transaction: the only chain takes every thread.
func Ring(n int) string {
	var b strings.Builder
	for t := range n {
		fmt.Fprintf(&b, "T%d|begin\nT%d|r(x%d)\nT%d|w(x%d)\nT%d|end\n", t, t, t, t, (t+1)%n, t)
	}
	return b.String()
}
