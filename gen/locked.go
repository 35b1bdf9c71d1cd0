package gen

import (
	"fmt"
	"math/rand/v2"
)

func init() {
	register(Family{
		Name: "locked",
		Doc: "--threads threads (default 2) of --n transactions each (default 1), each a critical " +
			"section of one of --locks locks (default 1): serializable, yet an exact search visits about n^k states (n transactions, k threads)",
		Reads: Reads{Knobs: []Knob{at("threads", 2), at("n", 1), at("locks", 1)}},
		Gen: func(_ *rand.Rand, p Params) string {
			return Locked(max(p.Threads, 2), max(p.EventsPerThread, 1), max(p.Locks, 1))
		},
		Bytes: func(p Params) float64 {
			k, n, l := max(p.Threads, 2), max(p.EventsPerThread, 1), max(p.Locks, 1)
			return 100 + float64(k)*(20+float64(n)*(70+3*digits(l))) + 2*float64(l)*(3+digits(l))
		},
	})
}

// Locked writes k threads that each run n transactions, the j-th of them
// read y; write y inside a critical section of lock m (y and m indexed by
// (i+j) mod l, so that with several locks the threads contend for
// different locks at different times). Every transaction is one critical
// section of the lock that guards all the variables it touches, so
// conflicting transactions never overlap and the conflict graph follows
// the order of the critical sections: the program is serializable.
//
// Without the locks every pair of threads could interleave read y; write y
// and violate atomicity, so no reasoning that ignores locks (the paper's
// profiles, a lock-free prefilter) can settle it: an exact engine has to
// explore the product of the threads' positions and the lock owners,
// which has about n^k states (Theorem 4's O(n^k) factor).
func Locked(k, n, l int) string {
	top := []*node{leaf("vars " + names("y", l)), leaf("locks " + names("m", l))}
	for i := 0; i < k; i++ {
		var body []*node
		for j := 0; j < n; j++ {
			v := (i + j) % l
			sec := block(fmt.Sprintf("sync m%d", v), []*node{leaf(fmt.Sprintf("read y%d", v)), leaf(fmt.Sprintf("write y%d", v))})
			body = append(body, block("atomic", []*node{sec}))
		}
		top = append(top, block(fmt.Sprintf("thread T%d", i), body))
	}
	return render(fmt.Sprintf("gen locked: k=%d n=%d locks=%d: serializable; about n^k product states", k, n, l), top)
}
