package main

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/conc-dev/conc/internal/outfile"
)

// runUntil is run, unless a signal comes first (Ctrl-C, SIGTERM): then the
// temporary files of the outputs not yet in place are removed, so that an
// interrupted run leaves neither a half-written output nor a ".NAME.tmpNNN"
// beside it (docs/spec.md §4), and the exit code is the shell's for a
// process killed by that signal, 128+N (130 for SIGINT, 143 for SIGTERM):
// the run has no answer, and 3 (unknown) would read as a limit reached.
func runUntil(sigs <-chan os.Signal, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	done := make(chan int, 1)
	go func() { done <- run(args, stdin, stdout, stderr) }()
	select {
	case code := <-done:
		return code
	case s := <-sigs:
		outfile.RemovePending()
		fmt.Fprintf(stderr, "conc: interrupted (%v)\n", s)
		return signalExit(s)
	}
}

// signalExit is 128 plus the signal's number, or 130 when it has none.
func signalExit(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}
