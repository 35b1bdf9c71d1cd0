//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The crash cases: inputs of a few hundred bytes on which conc without its
// budgets dies of the runtime's "fatal error: out of memory" (exit 2, like
// bad input) or runs for minutes. Each runs in a child process (this test binary,
// re-executed by TestMain) whose address space is capped at crashAddrSpace,
// so that memory the budget does not see still shows as a crash, with
// --max-memory far below that cap. It must end with a verdict or unknown
// (exit 0, 1 or 3) within a generous deadline, never with a crash.

// crashChildEnv marks the re-executed child; crashAddrSpace is its cap.
const (
	crashChildEnv  = "CONC_CRASH_CHILD"
	crashAddrSpace = 3 << 30
)

type crashCase struct {
	name string
	file string // the input's name: .conc or .std
	src  func() string
	args []string // flags after the command and the file
	want int      // the exit code when the answer is known, else 0: any verdict or unknown
}

var crashCases = []crashCase{
	// Fixed by a shorter search or smaller tables (docs/predict.md,
	// docs/profiles.md, docs/pda.md): each answers at once.
	{name: "predict: 30 threads of begin r(x) w(x) end", file: "chain.std", src: oneTxnThreads(30),
		args: []string{"predict"}, want: exitViolation},
	{name: "predict: one transaction and 15,999 one-write threads", file: "writes.std", src: manyWriters(15999),
		args: []string{"predict"}, want: exitViolation},
	{name: "check: a vars line of 30,000 names", file: "vars.conc", src: manyVars(30000),
		args: []string{"check"}},
	{name: "check: repeat 100000 { call nest }", file: "nest.conc", src: constant(nestSites),
		args: []string{"check"}},
	// Ended by the memory budget.
	{name: "check: 29 M events in 90 bytes", file: "events.conc", src: constant(manyEvents),
		args: []string{"check"}},
	{name: "check: bank.conc with repeat 1000000", file: "bank.conc", src: constant(bankMillion),
		args: []string{"check"}},
	{name: "check --engine global: lock-free recursion ten procedures deep", file: "deep.conc", src: repoFile("testdata/programs/deep_sites.conc"),
		args: []string{"check", "--engine", "global", "--max-memory", "8MiB"}},
	{name: "check --engine brute --lock-edges: lock-free recursion ten procedures deep", file: "deep.conc", src: repoFile("testdata/programs/deep_sites.conc"),
		args: []string{"check", "--engine", "brute", "--lock-edges", "--max-memory", "8MiB"}},
	{name: "check: recursive_counter with repeat 100 { call work }", file: "counter.conc", src: recursiveCounter(100),
		args: []string{"check", "--max-memory", "16MiB"}},
	{name: "monitor: 100,000 open transactions", file: "open.std", src: openTxns(100000),
		args: []string{"monitor", "--max-memory", "8MiB"}},
	// Found by the acceptance review: 4.5 million profiles of two wide
	// transactions (10,000 accesses each were killed by the kernel at 24 GB).
	{name: "profiles: two transactions of 3,000 accesses", file: "wide.conc", src: wide(3000),
		args: []string{"profiles"}, want: exitUnknown},
}

// wide is two transactions of n accesses each (wideTransactions).
func wide(n int) func() string { return func() string { return wideTransactions(n) } }

// TestMain re-executes this binary as conc itself for the crash cases.
func TestMain(m *testing.M) {
	if l := os.Getenv(rlimitChildEnv); l != "" {
		execUnderLimit(l) // does not return
	}
	if os.Getenv(rlimitRunEnv) != "" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv(crashChildEnv) != "" {
		lim := syscall.Rlimit{Cur: crashAddrSpace, Max: crashAddrSpace}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			fmt.Fprintln(os.Stderr, "setrlimit:", err)
			os.Exit(100)
		}
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestCrashCases(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range crashCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // most of the time is waiting for a timeout or a budget
			path := filepath.Join(dir, fmt.Sprint(i, tc.file))
			require.NoError(t, os.WriteFile(path, []byte(tc.src()), 0o644))
			args := append([]string{tc.args[0], path}, tc.args[1:]...)
			if !strings.Contains(strings.Join(args, " "), "--max-memory") {
				args = append(args, "--max-memory", "256MiB")
			}
			code, stdout, stderr := crashChild(t, args)
			require.NotContains(t, stderr, "fatal error", "a runtime crash")
			require.NotContains(t, stderr, "goroutine ", "a stack trace")
			require.Contains(t, []int{exitSerializable, exitViolation, exitUnknown}, code,
				"exit %d, want a verdict or unknown\nstdout: %s\nstderr: %s", code, stdout, stderr)
			if tc.want != 0 {
				require.Equal(t, tc.want, code, "stdout: %s\nstderr: %s", stdout, stderr)
			}
			if code == exitUnknown {
				require.Regexp(t, `(?m)^unknown: .*\(--[a-z-]+.*\)`, stdout, "an unknown names the flag that raises its limit")
			}
		})
	}
}

// crashChild runs conc with args in a child process under the address-space
// cap, and returns its exit code and output.
func crashChild(t *testing.T, args []string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), crashChildEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "conc %v did not end within 90 s", args)
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		require.NoError(t, err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// The inputs, built small here (the .conc ones are the crash cases as
// reported).
const (
	nestSites = `vars x
proc nest { choose { skip } or { read x; call nest } }
thread A { repeat 100000 { call nest } }
thread B { write x }
`
	manyEvents = `vars x
thread A { atomic { repeat 1000000 { repeat 29 { read x } } } }
thread B { write x }
`
	bankMillion = `vars balance
locks m
proc deposit { atomic { sync m { read balance } sync m { write balance } } }
thread A { repeat 1000000 { call deposit } }
thread B { call deposit }
`
)

func constant(s string) func() string { return func() string { return s } }

// repoFile reads a file of the module's testdata (shared with other
// packages' tests), from this package's directory.
func repoFile(path string) func() string {
	return func() string {
		b, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			panic(err)
		}
		return string(b)
	}
}

// oneTxnThreads: n threads of begin r(x) w(x) end.
func oneTxnThreads(n int) func() string {
	return func() string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "T%d|begin|1\nT%d|r(x)|2\nT%d|w(x)|3\nT%d|end|4\n", i, i, i, i)
		}
		return b.String()
	}
}

// manyWriters: one two-access transaction, then n threads of one write.
func manyWriters(n int) func() string {
	return func() string {
		var b strings.Builder
		b.WriteString("T|begin|1\nT|r(x)|2\nT|w(x)|3\nT|end|4\n")
		for i := range n {
			fmt.Fprintf(&b, "W%d|w(x)|5\n", i)
		}
		return b.String()
	}
}

// manyVars: a vars line of n names, two of them used.
func manyVars(n int) func() string {
	return func() string {
		var b strings.Builder
		b.WriteString("vars v0")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, ", v%d", i)
		}
		b.WriteString("\nthread A { atomic { read v0; write v1 } }\nthread B { write v0; read v1 }\n")
		return b.String()
	}
}

// recursiveCounter: examples/recursive_counter.conc with both threads'
// bodies wrapped in repeat n { call work }.
func recursiveCounter(n int) func() string {
	return func() string {
		src, err := os.ReadFile("../../examples/recursive_counter.conc")
		if err != nil {
			panic(err)
		}
		s := strings.ReplaceAll(string(src), "{ call work }\n", fmt.Sprintf("{ repeat %d { call work } }\n", n))
		if strings.Count(s, "repeat") != 2 {
			panic("recursive_counter.conc changed: its threads are no longer { call work }")
		}
		return s
	}
}

// openTxns: n threads, each beginning a transaction and reading, none
// ending: the monitor holds every one.
func openTxns(n int) func() string {
	return func() string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "t%d|begin|1\nt%d|r(x%d)|2\n", i, i, i%1000)
		}
		return b.String()
	}
}
