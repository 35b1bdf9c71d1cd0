package budget

import "sync"

// A process under ulimit -v (RLIMIT_AS) or ulimit -d (RLIMIT_DATA) gets
// the runtime's "fatal error: out of memory" long before the machine's
// memory runs out: the limit counts address space, and the Go runtime
// holds much more of it than the heap. At start it has reserved about
// 1.6 GiB on amd64 (arena hints, the page allocator's summaries), all
// counted by RLIMIT_AS; as the heap grows, every arena it maps and the
// arena's metadata are counted, and freed memory returned to the system
// stays mapped. So the default budget is half of what the limit leaves
// beyond what the process holds when the budget is first asked for: the
// other half is for the runtime's own growth and the allocations made
// between two polls of the heap.

// minLeft is the least budget a limit leaves: below it nothing runs, and
// the runs that do answer unknown at once rather than crash.
const minLeft = 16 << 20

// rlimitBudget is the budget the process's resource limits leave, or 0
// when none is set (or, outside Linux, none is read).
var rlimitBudget = sync.OnceValue(func() int64 {
	var b int64
	for _, l := range processLimits() {
		if v := leftUnder(l); v > 0 && (b == 0 || v < b) {
			b = v
		}
	}
	return b
})

// DefaultWhy says what the default budget is, for --max-memory's help.
func DefaultWhy() string {
	if r := rlimitBudget(); r > 0 && r < machine()/4*3 {
		return "half of what ulimit -v or -d leaves"
	}
	return "3/4 of this machine's memory"
}

// processLimit is one resource limit and the amount of it the process
// already uses, in bytes; limit 0 is no limit.
type processLimit struct{ limit, used int64 }

// leftUnder is the budget l leaves: half of the limit beyond what is used,
// at least minLeft; 0 when there is no limit.
func leftUnder(l processLimit) int64 {
	if l.limit <= 0 {
		return 0
	}
	return max((l.limit-l.used)/2, minLeft)
}
