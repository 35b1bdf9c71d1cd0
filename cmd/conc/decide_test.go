package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestHugeTimeoutIsNoTimeout: Go's longest duration is practically no
// timeout. It once overflowed the deadline arithmetic of the CLI's backstop,
// which fired at once, and the engine's missing answer was printed as
// serializable, exit 0.
func TestHugeTimeoutIsNoTimeout(t *testing.T) {
	const huge = "--timeout=2562047h47m16s"
	for _, args := range [][]string{
		{"check", "../../examples/fig1.conc", huge},
		{"check", "../../examples/bank.conc", huge},
		{"check", "../../examples/fig1.conc", huge, "--engine", "brute"},
		{"predict", file(t, "r.std", reorderTrace), huge},
		{"monitor", file(t, "l.std", lostUpdateTrace), huge},
	} {
		o := conc(args...)
		require.Equal(t, exitViolation, o.code, "%v\nstdout:\n%s\nstderr:\n%s", args, o.stdout, o.stderr)
		require.True(t, strings.HasPrefix(o.stdout, "violation"), o.stdout)
	}
}

// stubborn is an engine that ignores its deadline and would then say
// nothing: the zero Result, which reads serializable. (It never returns:
// its goroutine is left behind, as the CLI leaves an overrunning engine.)
var stubborn = &engines.Engine{
	Name:     "test-stubborn",
	Doc:      "ignores the context (tests only)",
	Supports: func(*model.Program, engines.Options) error { return nil },
	Check: func(context.Context, *model.Program, engines.Options) (engines.Result, error) {
		<-make(chan struct{})
		return engines.Result{}, nil
	},
}

func init() { engines.Register(stubborn) }

// TestOverrunIsUnknown: an engine abandoned by the backstop did not finish;
// the answer is unknown with the timeout's reason, exit 3.
func TestOverrunIsUnknown(t *testing.T) {
	defer func(g time.Duration) { check.TimeoutGrace = g }(check.TimeoutGrace)
	check.TimeoutGrace = 10 * time.Millisecond
	o := conc("check", file(t, "bank.conc", lostUpdate), "--engine", stubborn.Name, "--timeout", "10ms")
	require.Equal(t, exitUnknown, o.code, o.stdout+o.stderr)
	require.True(t, strings.HasPrefix(o.stdout, "unknown: timeout: no answer within 10ms (--timeout)"), o.stdout)
}
