//go:build linux

// Package cputime gives benchmarks the CPU time of the calling OS thread,
// which on a shared, noisy machine says more than wall time: a benchmark
// that locks its goroutine to a thread measures its own work only.
package cputime

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD (the syscall package has no name
// for it).
const rusageThread = 1

// Thread is the calling OS thread's CPU time, user and system, or 0 where
// the kernel cannot tell.
func Thread() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
