package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// Programs of docs/spec.md §2, each with what docs/spec.md §1 says of it.
const (
	// lostUpdate: B's write can fall between A's read and write.
	lostUpdate = `vars balance
thread A { atomic { read balance; write balance } }
thread B { write balance }
`
	// readers: reads never conflict with reads.
	readers = `vars x
thread A { atomic { read x; read x } }
thread B { atomic { read x } }
`
	// guarded: the lock keeps B out of A's transaction; without the lock
	// (--ignore-sync) B's write can fall inside it.
	guarded = `vars x
locks m
thread A { sync m { atomic { read x; write x } } }
thread B { sync m { write x } }
`
)

// looping: unboundedly many read-only transactions; brute explores them only
// up to its depth bound.
const looping = `vars x
thread A { loop { atomic { read x; read x } } }
thread B { loop { read x } }
`

type outcome struct {
	code           int
	stdout, stderr string
}

// conc runs the command line with the given arguments.
func conc(args ...string) outcome {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return outcome{code, out.String(), errb.String()}
}

// file writes src to name in a fresh directory and returns its path.
func file(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

func TestCheckExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		args      []string
		code      int
		first     string
	}{
		{"violation", lostUpdate, nil, exitViolation, "violation"},
		{"serializable", readers, nil, exitSerializable, "serializable"},
		{"locks respected", guarded, nil, exitSerializable, "serializable"},
		{"locks respected by brute", guarded, []string{"--engine", "brute"}, exitSerializable, "serializable"},
		{"locks ignored", guarded, []string{"--ignore-sync"}, exitViolation, "violation"},
		{"profile ignoring locks", guarded, []string{"--engine", "profile", "--ignore-sync"}, exitViolation, "violation"},
		{"bounded search", looping, []string{"--engine", "brute", "--max-depth", "3"}, exitUnknown, "unknown: "},
		{"looping", looping, nil, exitSerializable, "serializable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := file(t, "p.conc", tc.src)
			o := conc(append([]string{"check", path}, tc.args...)...)
			require.Equal(t, tc.code, o.code, "stdout:\n%s\nstderr:\n%s", o.stdout, o.stderr)
			// The verdict line: exact, or its prefix when the reason follows.
			line := strings.SplitN(o.stdout, "\n", 2)[0]
			if strings.HasSuffix(tc.first, ": ") {
				require.True(t, strings.HasPrefix(line, tc.first), line)
			} else {
				require.Equal(t, tc.first, line)
			}
		})
	}
}

func TestCheckViolationText(t *testing.T) {
	path := file(t, "bank.conc", lostUpdate)
	o := conc("check", path)
	require.Equal(t, exitViolation, o.code, o.stderr)
	// The cycle in words names both threads, the variable and positions.
	re := regexp.MustCompile(`(?m)^  [AB]'s (read|write) of balance at .*bank\.conc:\d+:\d+ comes before [AB]'s (read|write) of balance at .*bank\.conc:\d+:\d+`)
	require.Regexp(t, re, o.stdout)
	require.Contains(t, o.stdout, "engine ")

	q := conc("check", path, "--quiet")
	require.Equal(t, exitViolation, q.code)
	require.NotContains(t, q.stdout, "engine ", "--quiet leaves out the summary")
}

func TestCheckIgnoreSyncSaysOptimistic(t *testing.T) {
	o := conc("check", "--ignore-sync", file(t, "g.conc", guarded))
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, "optimistic")
}

func TestCheckJSON(t *testing.T) {
	path := file(t, "bank.conc", lostUpdate)
	// Flags after the file argument, as users type them.
	o := conc("check", path, "--format", "json")
	require.Equal(t, exitViolation, o.code, o.stderr)
	var got struct {
		Verdict string `json:"verdict"`
		Engine  string `json:"engine"`
		Class   string `json:"class"`
		Threads int    `json:"threads"`
		Vars    int    `json:"vars"`
		Locks   *int   `json:"locks"`
		Witness *struct {
			Run []struct {
				Thread, Op, Target, Pos string
			} `json:"run"`
			Cycle []struct{ From, To int } `json:"cycle"`
		} `json:"witness"`
		Stats *engines.Stats `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &got), o.stdout)
	require.Equal(t, "violation", got.Verdict)
	require.Equal(t, "straight-line", got.Class)
	require.Equal(t, 2, got.Threads)
	require.Equal(t, 1, got.Vars)
	require.NotNil(t, got.Locks)
	require.NotEmpty(t, got.Engine)
	require.NotNil(t, got.Stats)
	require.NotNil(t, got.Witness)
	require.GreaterOrEqual(t, len(got.Witness.Cycle), 2)
	for _, c := range got.Witness.Cycle {
		require.Less(t, c.From, c.To)
		require.Less(t, c.To, len(got.Witness.Run))
		from, to := got.Witness.Run[c.From], got.Witness.Run[c.To]
		if from.Thread != to.Thread { // a conflict across threads is on balance
			require.Equal(t, "balance", from.Target)
			require.Equal(t, "balance", to.Target)
			require.Regexp(t, `bank\.conc:\d+:\d+$`, from.Pos)
		}
	}

	s := conc("check", "--format=json", file(t, "r.conc", readers))
	require.Equal(t, exitSerializable, s.code, s.stderr)
	var safe map[string]any
	require.NoError(t, json.Unmarshal([]byte(s.stdout), &safe))
	require.Equal(t, "serializable", safe["verdict"])
	require.NotContains(t, safe, "witness")
}

func TestCheckDot(t *testing.T) {
	dot := filepath.Join(t.TempDir(), "cycle.dot")
	o := conc("check", file(t, "bank.conc", lostUpdate), "--dot", dot)
	require.Equal(t, exitViolation, o.code, o.stderr)
	b, err := os.ReadFile(dot)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "digraph conflicts {"))
	require.Contains(t, string(b), "->")
	require.Contains(t, string(b), "balance")

	bad := conc("check", file(t, "bank.conc", lostUpdate), "--dot", filepath.Join(t.TempDir(), "no", "such", "dir.dot"))
	require.Equal(t, exitUsage, bad.code)
	require.Contains(t, bad.stderr, "--dot")
}

func TestCheckBadInput(t *testing.T) {
	bad := file(t, "bad.conc", "vars x\nthread A {\n  read\n}\n")
	o := conc("check", bad)
	require.Equal(t, exitUsage, o.code)
	require.Regexp(t, `(?m)^.*bad\.conc:\d+:\d+: \S`, o.stderr)
	require.Empty(t, o.stdout)

	missing := filepath.Join(t.TempDir(), "missing.conc")
	o = conc("check", missing)
	require.Equal(t, exitUsage, o.code)
	require.Contains(t, o.stderr, "missing.conc")
	require.True(t, strings.HasPrefix(o.stderr, "conc: "), o.stderr)
}

func TestUsageErrors(t *testing.T) {
	path := file(t, "bank.conc", lostUpdate)
	locked := file(t, "g.conc", guarded)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no arguments", nil, "Usage"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"unknown flag", []string{"check", path, "--frob"}, "--frob"},
		{"no file", []string{"check"}, "FILE.conc"},
		{"two files", []string{"check", path, path}, "FILE.conc"},
		{"bad format", []string{"check", path, "--format", "xml"}, "--format"},
		{"bad engine", []string{"check", path, "--engine", "magic"}, "--engine"},
		{"negative bound", []string{"check", path, "--max-states", "-1"}, "--max-states"},
		{"profile with locks", []string{"check", locked, "--engine", "profile"}, "--ignore-sync"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := conc(tc.args...)
			require.Equal(t, exitUsage, o.code, "stdout:\n%s\nstderr:\n%s", o.stdout, o.stderr)
			require.Contains(t, o.stderr, tc.want)
		})
	}
}

// Every subcommand of docs/spec.md §4 is built, and usage lists them
// in the spec's order.
func TestEveryCommandBuilt(t *testing.T) {
	usage := conc("--help").stdout
	at := -1
	for _, name := range order {
		require.Contains(t, commands, name)
		i := strings.Index(usage, "\n  conc "+name+" ")
		require.Greater(t, i, at, "%s comes after the commands before it", name)
		at = i
	}
}

func TestHelpAndVersion(t *testing.T) {
	o := conc("--help")
	require.Equal(t, 0, o.code)
	for _, name := range order {
		require.Contains(t, o.stdout, "conc "+name)
	}
	o = conc("check", "--help")
	require.Equal(t, 0, o.code)
	require.Contains(t, o.stdout, "Usage: conc check FILE.conc")
	require.Contains(t, o.stdout, "-lock-edges")
	o = conc("help", "check")
	require.Equal(t, 0, o.code)
	require.Contains(t, o.stdout, "-max-depth")
	for _, args := range [][]string{{"--version"}, {"check", "--version"}} {
		o = conc(args...)
		require.Equal(t, 0, o.code)
		require.True(t, strings.HasPrefix(o.stdout, "conc "), o.stdout)
	}
}

func TestCheckStdin(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"check", "-"}, strings.NewReader(lostUpdate), &out, &errb)
	require.Equal(t, exitViolation, code, errb.String())
	require.Contains(t, out.String(), "<stdin>:")
}

// TestTimeout may decide the program before the deadline; whatever happens,
// a tiny timeout gives a decided answer or unknown, never an error.
func TestTimeout(t *testing.T) {
	o := conc("check", file(t, "bank.conc", lostUpdate), "--timeout", "1ns")
	require.Contains(t, []int{exitViolation, exitUnknown}, o.code, o.stderr)
	if o.code == exitUnknown {
		require.True(t, strings.HasPrefix(o.stdout, "unknown: "), o.stdout)
	}
}

// waiter is an engine that only ever waits for its deadline: it makes the
// timeout path deterministic.
var waiter = &engines.Engine{
	Name:     "test-waiter",
	Doc:      "waits for the context (tests only)",
	Supports: func(*model.Program, engines.Options) error { return nil },
	Check: func(ctx context.Context, _ *model.Program, _ engines.Options) (engines.Result, error) {
		<-ctx.Done()
		return engines.Result{}, ctx.Err()
	},
}

func init() { engines.Register(waiter) }

func TestTimeoutIsUnknown(t *testing.T) {
	path := file(t, "bank.conc", lostUpdate)
	o := conc("check", path, "--engine", waiter.Name, "--timeout", "20ms")
	require.Equal(t, exitUnknown, o.code, o.stderr)
	require.True(t, strings.HasPrefix(o.stdout, "unknown: timeout"), o.stdout)

	j := conc("check", path, "--engine", waiter.Name, "--timeout", "20ms", "--format", "json")
	require.Equal(t, exitUnknown, j.code, j.stderr)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(j.stdout), &got))
	require.Equal(t, "unknown", got["verdict"])
	require.Contains(t, got["reason"], "timeout")
	require.Equal(t, waiter.Name, got["engine"])
}

// panicky is an engine with a bug: the CLI must still answer in one line.
var panicky = &engines.Engine{
	Name:     "test-panicky",
	Doc:      "panics (tests only)",
	Supports: func(*model.Program, engines.Options) error { return nil },
	Check: func(context.Context, *model.Program, engines.Options) (engines.Result, error) {
		panic("boom")
	},
}

func init() { engines.Register(panicky) }

func TestEnginePanicIsAnError(t *testing.T) {
	o := conc("check", file(t, "bank.conc", lostUpdate), "--engine", panicky.Name)
	require.Equal(t, exitUsage, o.code)
	require.Regexp(t, `^conc: engine test-panicky failed: panic: .*\n$`, o.stderr)
}
