package budget

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"4GiB", 4 << 30}, {"512MiB", 512 << 20}, {"512mib", 512 << 20}, {"1.5G", 3 << 29},
		{"2gb", 2 << 30}, {"1T", 1 << 40}, {"2048K", 2 << 20}, {"1048576", 1 << 20},
		{" 3 GiB ", 3 << 30}, {"1e30", 1<<63 - 1},
	} {
		got, err := Parse(tc.in)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
	for _, bad := range []string{"", "GiB", "-1GiB", "4 GiBs", "NaN", "inf", "100", "1KiB", "0"} {
		_, err := Parse(bad)
		require.Error(t, err, bad)
	}
}

func TestFormat(t *testing.T) {
	require.Equal(t, "18 GiB", Format(18<<30))
	require.Equal(t, "1.5 GiB", Format(3<<29))
	require.Equal(t, "256 MiB", Format(256<<20))
	require.Equal(t, "12 bytes", Format(12))
	require.Equal(t, "12,345,678", Count(12345678))
	require.Equal(t, "999", Count(999))
	require.Equal(t, "-1,000", Count(-1000))
}

// TestDefault: the machine's memory is read (this suite runs on Linux and
// other systems alike: either way the default is a sane, positive size),
// and the default is three quarters of it unless a limit leaves less.
func TestDefault(t *testing.T) {
	require.Greater(t, machine(), int64(256<<20))
	want := machine() / 4 * 3
	if r := rlimitBudget(); r > 0 { // under ulimit -v or -d
		want = min(want, r)
	}
	require.Equal(t, want, Default())
	require.Equal(t, Default(), New(0).limit)
}

var sink []byte

// TestMeter: an allocation larger than the budget does not fit, and once
// made (and live) the heap is over the budget.
func TestMeter(t *testing.T) {
	m := New(64 << 20)
	require.True(t, m.Fits(1<<20))
	require.False(t, m.Fits(65<<20))
	require.False(t, m.Fits(1<<62))
	sink = make([]byte, 80<<20)
	require.True(t, m.Over())
	require.Contains(t, m.Reached(1234567), "memory budget of 64 MiB reached after 1,234,567 states (--max-memory raises it)")
	require.Contains(t, m.TooLarge("the tables", 3<<29), "the tables would need about 1.5 GiB, more than the memory budget of 64 MiB leaves (--max-memory raises it)")
	sink = nil
}

func TestSetLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	restore := SetLimit(300 << 20)
	require.Equal(t, min(before, 300<<20), debug.SetMemoryLimit(-1))
	restore()
	require.Equal(t, before, debug.SetMemoryLimit(-1))
}

// TestWatch: the watch ends its context with cause Exceeded once the heap
// holds more than the budget, and not before.
func TestWatch(t *testing.T) {
	// Collect earlier tests' garbage first (TestMeter's 80 MiB): counted in
	// the starting heap and collected during the wait, it would hide the
	// allocation below.
	runtime.GC()
	ctx, stop := Watch(context.Background(), New(0).Heap()+64<<20)
	defer stop()
	time.Sleep(3 * watchEvery)
	require.NoError(t, ctx.Err())
	sink = make([]byte, 80<<20)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the watch did not see the heap reach its budget")
	}
	var ex *Exceeded
	require.ErrorAs(t, context.Cause(ctx), &ex)
	require.Contains(t, ex.Error(), "reached (--max-memory raises it)")
	sink = nil
}

// BenchmarkHeap is the cost of one heap reading (Meter.Heap), which the
// searches make every so many states.
func BenchmarkHeap(b *testing.B) {
	m := New(0)
	for b.Loop() {
		sinkHeap = m.Heap()
	}
}

var sinkHeap int64

// TestLeftUnder: a limit leaves half of what the process does not yet
// use, at least minLeft; no limit leaves no bound.
func TestLeftUnder(t *testing.T) {
	require.Equal(t, int64(0), leftUnder(processLimit{limit: 0, used: 1 << 30}))
	require.Equal(t, int64(1200<<20), leftUnder(processLimit{limit: 4 << 30, used: 4<<30 - 2400<<20}))
	require.Equal(t, int64(minLeft), leftUnder(processLimit{limit: 1 << 30, used: 2 << 30}))
}

// TestProcessLimitsAreRead: this process's limits and usage are read
// (Linux: RLIMIT_AS against VmSize, RLIMIT_DATA against VmData), and under
// a limit (go test run by prlimit) the default budget is at most half of
// it.
func TestProcessLimitsAreRead(t *testing.T) {
	for _, l := range processLimits() {
		require.Greater(t, l.used, int64(0), "the process's usage is read")
		if l.limit > 0 {
			require.LessOrEqual(t, Default(), l.limit/2)
		}
	}
}
