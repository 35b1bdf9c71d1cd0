package predict

import (
	"context"
	"io"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// peakHeap runs f while sampling the live heap, and returns the largest
// sample above the heap before f.
func peakHeap(f func()) uint64 {
	// The collector's pacing lets garbage pile up to the live heap's size
	// before a collection (GOGC 100), so the sampled peak would swing with
	// when collections fall; a low percentage keeps HeapAlloc near what
	// is live, which is what the tests bound.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > base && ms.HeapAlloc-base > peak.Load() {
				peak.Store(ms.HeapAlloc - base)
			}
		}
	}()
	f()
	close(done)
	return peak.Load()
}

// predictGen predicts a generated lock-free trace of n events, streamed
// through a pipe, in which every transaction has one access: serializable,
// so the scan reads the whole spool.
func predictGen(t *testing.T, n int64) engines.Result {
	pr, pw := io.Pipe()
	g := trace.NewGen(trace.GenOptions{Seed: 3, Events: n, Threads: 4, Vars: 500, TxnLen: 1, Writes: 0.3})
	go func() {
		_, err := g.WriteTo(pw)
		pw.CloseWithError(err)
	}()
	r, err := trace.NewReader(pr, "gen.std", trace.Options{})
	require.NoError(t, err)
	out, err := Predict(context.Background(), r, Options{TempDir: t.TempDir()})
	require.NoError(t, err)
	return out.Result
}

// TestMemoryFlat: ten times the events, the same memory. The spool moves to
// disk (here past 1 MiB) and the summaries are per thread and variable.
func TestMemoryFlat(t *testing.T) {
	old := proj.SpoolMem
	proj.SpoolMem = 1 << 20
	defer func() { proj.SpoolMem = old }()
	var small, big engines.Result
	ps := peakHeap(func() { small = predictGen(t, 200_000) })
	pb := peakHeap(func() { big = predictGen(t, 2_000_000) })
	t.Logf("peak heap: %d KiB for 2*10^5 events, %d KiB for 2*10^6", ps>>10, pb>>10)
	require.Equal(t, engines.Serializable, small.Verdict)
	require.Equal(t, engines.Serializable, big.Verdict)
	require.Greater(t, big.Stats.Events, 9*small.Stats.Events)
	require.Less(t, pb, ps+8<<20, "small %d big %d", ps, pb)
}

// collectGen runs the first pass over a generated locked trace of n
// events (8 threads, 2,000 variables, 16 locks), streamed through a pipe.
func collectGen(t *testing.T, n int64) *proj.Summary {
	pr, pw := io.Pipe()
	g := trace.NewGen(trace.GenOptions{Seed: 5, Events: n, Threads: 8, Vars: 2000, Locks: 16, TxnLen: 8,
		Unprotected: 0.1, Unary: 0.1, Writes: 0.3})
	go func() {
		_, err := g.WriteTo(pw)
		pw.CloseWithError(err)
	}()
	r, err := trace.NewReader(pr, "gen.std", trace.Options{})
	require.NoError(t, err)
	sp, err := proj.NewSpool(t.TempDir())
	require.NoError(t, err)
	defer sp.Close()
	s, err := proj.Collect(context.Background(), r, sp)
	require.NoError(t, err)
	return s
}

// TestMemoryFlatLocked: the first pass keeps, per thread that takes a
// lock, a lock set per letter (threadSum.held) besides its spans, so ten
// times the events of a locked trace still take the same memory.
func TestMemoryFlatLocked(t *testing.T) {
	old := proj.SpoolMem
	proj.SpoolMem = 1 << 20
	defer func() { proj.SpoolMem = old }()
	n := int64(testflag.N(100_000, 200_000))
	var small, big *proj.Summary
	ps := peakHeap(func() { small = collectGen(t, n) })
	pb := peakHeap(func() { big = collectGen(t, 10*n) })
	t.Logf("peak heap: %d KiB for %d events, %d KiB for %d", ps>>10, small.Events, pb>>10, big.Events)
	require.Greater(t, big.Events, 9*small.Events)
	for _, th := range big.Threads {
		require.NotNil(t, th.Held, "every thread takes a lock")
	}
	require.Less(t, pb, ps+8<<20, "small %d big %d", ps, pb)
}
