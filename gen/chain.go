package gen

import (
	"fmt"
	"math/rand/v2"
)

func init() {
	register(Family{
		Name: "chain",
		Doc: "a violation whose cycle of conflicts passes through all --threads threads " +
			"(default 2), each first making --n unary writes (default 0); --twin writes its serializable twin",
		Reads: Reads{Knobs: []Knob{at("threads", 2), at("n", 0)}, Switches: []string{"twin"}},
		Gen: func(_ *rand.Rand, p Params) string {
			return Chain(max(p.Threads, 2), max(p.EventsPerThread, 0), p.Twin)
		},
		Bytes: func(p Params) float64 {
			k := max(p.Threads, 2)
			return 100 + float64(k)*(90+4*digits(k)) + digits(p.EventsPerThread)
		},
	})
}

// Chain writes the ring of k threads whose only conflict cycle goes through
// every one of them: thread T_i runs the transaction read x_i; write x_{i+1}
// (indices mod k). In the run where every thread reads before any writes,
// T_i's read of x_i precedes T_{i-1}'s write of it, so T_i -> T_{i-1} for
// every i: a cycle of length k. Each pair of threads shares at most one
// variable, read by one and written by the other, so it contributes one edge
// at most; dropping any thread leaves a path, and the program serializable.
//
// Before its transaction each thread makes n unary writes of a shared z.
// They conflict across threads, so they multiply the interleavings a global
// search must tell apart (about n^k), but they cannot lie on a cycle: they
// come before every multi-event transaction in program order, and nothing
// after them conflicts with them. They scale the size n of the threads
// without changing the verdict.
//
// The twin splits T_0's transaction into two unary ones, same events. A
// cycle must now leave T_0 by its later transaction (the write of x_1) after
// entering by the earlier one (the read of x_0), so it runs the other way
// round the ring, each write before the next thread's read; then T_{k-1}
// would read x_{k-1} after writing x_0, against its program order. So the
// twin is serializable.
func Chain(k, n int, twin bool) string {
	var top []*node
	top = append(top, leaf("vars "+names("x", k)+", z"))
	for i := 0; i < k; i++ {
		var body []*node
		if n > 0 {
			body = append(body, block(fmt.Sprintf("repeat %d", n), []*node{leaf("write z")}))
		}
		r, w := fmt.Sprintf("read x%d", i), fmt.Sprintf("write x%d", (i+1)%k)
		if twin && i == 0 {
			body = append(body, block("atomic", []*node{leaf(r)}), block("atomic", []*node{leaf(w)}))
		} else {
			body = append(body, block("atomic", []*node{leaf(r), leaf(w)}))
		}
		top = append(top, block(fmt.Sprintf("thread T%d", i), body))
	}
	what := "a violation through all %d threads"
	if twin {
		what = "the serializable twin of the ring of %d threads"
	}
	return render(fmt.Sprintf("gen chain: k=%d n=%d: "+what, k, n, k), top)
}
