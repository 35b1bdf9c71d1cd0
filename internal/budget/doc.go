// Package budget is the memory budget of one run (docs/spec.md §4's
// --max-memory). A search whose states all cost memory ends when the memory
// runs out; without a budget that end is the runtime's "fatal error: out of
// memory", a crash with exit 2 that reads like bad input. With one, the
// search stops first and answers unknown (exit 3), naming the budget and
// the flag that raises it.
//
// The budget is enforced in two ways, the first as predict's table
// estimate is: before a large allocation its size is estimated and compared with
// what is left (Meter.Fits), and while a search runs the heap is polled
// every so many states (Meter.Over), which is cheap: runtime/metrics, about
// 0.7 µs a read (BenchmarkHeap) and no stop of the world, where
// runtime.ReadMemStats stops the world.
// SetLimit also makes the budget the garbage collector's soft target
// (debug.SetMemoryLimit), so that garbage is collected before the budget
// is taken for live data.
//
// The default is three quarters of the machine's memory: the physical RAM,
// or the cgroup's limit when one is set and lower; under an address-space
// or data limit (ulimit -v, -d) at most half of what the limit leaves
// (rlimit.go).
package budget
