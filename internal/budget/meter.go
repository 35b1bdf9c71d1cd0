package budget

import (
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
)

// heapMetric is the bytes of heap objects, live or not yet swept: what the
// heap holds now (a garbage collection lowers it; live data does not go).
const heapMetric = "/memory/classes/heap/objects:bytes"

// Meter watches the heap against a budget. It is not safe for concurrent
// use: each search has its own.
type Meter struct {
	limit  int64
	sample [1]metrics.Sample
}

// New is a meter for a budget of limit bytes; 0 (or less) is Default().
func New(limit int64) *Meter {
	if limit <= 0 {
		limit = Default()
	}
	m := &Meter{limit: limit}
	m.sample[0].Name = heapMetric
	return m
}

// Limit is the budget in bytes.
func (m *Meter) Limit() int64 { return m.limit }

// Heap is the bytes the heap holds now.
func (m *Meter) Heap() int64 {
	metrics.Read(m.sample[:])
	if m.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(m.sample[0].Value.Uint64(), math.MaxInt64))
}

// Over reports whether the heap has reached the budget. With the budget as
// the collector's soft limit (SetLimit), the heap reaches it only when the
// live data nearly does: garbage is collected first.
func (m *Meter) Over() bool { return m.Heap() >= m.limit }

// Fits reports whether need more bytes fit in the budget beside what the
// heap holds now; need is an estimate made before allocating.
func (m *Meter) Fits(need int64) bool {
	return need <= m.limit && m.Heap() <= m.limit-need
}

// Reached is the reason of an unknown answer whose search hit the budget
// after the given number of states.
func (m *Meter) Reached(states int64) string {
	return fmt.Sprintf("memory budget of %s reached after %s states (--max-memory raises it)",
		Format(m.limit), Count(states))
}

// TooLarge is the reason of an unknown answer refused before allocating:
// what would need about need bytes.
func (m *Meter) TooLarge(what string, need int64) string {
	return fmt.Sprintf("%s would need about %s, more than the memory budget of %s leaves (--max-memory raises it)",
		what, Format(need), Format(m.limit))
}

// SetLimit makes limit (0: Default()) the garbage collector's soft memory
// limit, so that the heap is collected before the budget is reached rather
// than at twice the live data; it returns a function that restores the
// previous limit. A lower limit already set (GOMEMLIMIT) is kept. The
// budget itself is enforced by the meters.
func SetLimit(limit int64) (restore func()) {
	if limit <= 0 {
		limit = Default()
	}
	old := debug.SetMemoryLimit(-1) // -1 reads the limit without changing it
	debug.SetMemoryLimit(min(old, limit))
	return func() { debug.SetMemoryLimit(old) }
}
