//go:build !linux

package cputime

import "time"

var start = time.Now()

// Thread is, where only Linux tells a thread's CPU time (RUSAGE_THREAD),
// the wall time since the program started: a coarser stand-in that still
// grows with the work, so the benchmarks' loops that wait for it end.
func Thread() time.Duration { return time.Since(start) }
