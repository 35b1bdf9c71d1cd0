package shrink

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// TestShrinkEdits runs every kind of edit: a thread family cut to one
// thread, a lock pair, a repeat count, a choose branch, a block unwrapped, a
// chain of calls inlined.
func TestShrinkEdits(t *testing.T) {
	src := `// a comment that goes
vars x, y
locks m
proc P {
  call Q
}
proc Q {
  write x
}
thread W[3] {
  acquire m
  atomic {
    repeat 3 {
      call P /* writes x */
    }
  }
  release m
  choose {
    read x
  } or {
    skip
  } or {
    read y
  }
}
thread U { read y }
`
	calls := 0
	fails := func(s string) bool {
		calls++
		p, err := lang.Compile("s.conc", []byte(s))
		return err == nil && len(p.Threads) > 0 && p.Threads[0].Name == "W[0]" &&
			p.Uses(func(o model.Op) bool { return o == model.OpWrite })
	}
	got := Program(src, fails)
	require.Equal(t, "thread W[1] {\n  write x\n}\n", got)
	require.Positive(t, calls)
}

// TestShrinkKeepsSource: without a smaller failing program, Shrink returns
// its input; input it cannot lay out is returned unchanged.
func TestShrinkKeepsSource(t *testing.T) {
	src := "thread A {\n  write x\n}\n"
	require.Equal(t, src, Program(src, func(s string) bool { return s == src }))
	odd := "thread A {\n  write x\n" // no closing brace
	require.Equal(t, odd, Program(odd, func(string) bool { return true }))
}

// TestShrinkViolation shrinks random violating programs with the brute
// engine as the oracle: the result still violates, compiles, has the two
// threads a cycle needs at least (edges within one thread follow program
// order), and no single edit keeps the violation.
func TestShrinkViolation(t *testing.T) {
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	violates := func(s string) bool {
		p, err := lang.Compile("s.conc", []byte(s))
		if err != nil {
			return false
		}
		res, err := brute.Check(context.Background(), p, engines.Options{})
		return err == nil && res.Verdict == engines.Violation
	}
	p := gen.Params{Threads: 3, EventsPerThread: 4, Vars: 2, TxnLen: 3, Unary: true, Nested: true, Sync: true}
	shrunk := 0
	for seed := uint64(0); shrunk < 3 && seed < 100; seed++ {
		src := gen.Random(rand.New(rand.NewPCG(seed, 5)), p)
		if !violates(src) {
			continue
		}
		shrunk++
		got := Program(src, violates)
		require.True(t, violates(got), got)
		prog, err := lang.Compile("got.conc", []byte(got))
		require.NoError(t, err)
		require.Len(t, prog.Threads, 2, "seed %d:\n%s", seed, got)
		require.Less(t, len(lines(got)), len(lines(src)))
		top, ok := parseLines(got)
		require.True(t, ok)
		_, more := shrinkStep(top, violates)
		require.False(t, more, "not minimal:\n%s", got)
	}
	require.Equal(t, 3, shrunk, "too few violating programs drawn")
}

// TestParseLinesRoundTrip: the examples and generated programs parse into
// lines and blocks and render back to programs of the same shape.
func TestParseLinesRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.conc")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var srcs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		srcs = append(srcs, string(b))
	}
	for seed := uint64(0); seed < 50; seed++ {
		p := gen.Params{Loops: true, Choice: true, Recursion: seed%2 == 0, Sync: true, Nested: true, Unary: true}
		srcs = append(srcs, gen.Random(rand.New(rand.NewPCG(seed, 3)), p))
	}
	for _, src := range srcs {
		top, ok := parseLines(src)
		require.True(t, ok, src)
		out := render(top)
		a, err := lang.Compile("a.conc", []byte(src))
		require.NoError(t, err, src)
		b, err := lang.Compile("b.conc", []byte(out))
		require.NoError(t, err, out)
		require.Equal(t, len(a.Threads), len(b.Threads))
		require.Equal(t, a.Class(), b.Class())
		require.Equal(t, a.Vars, b.Vars)
		require.Equal(t, a.Locks, b.Locks)
	}
	_, ok := parseLines("}\n")
	require.False(t, ok)
	_, ok = parseLines("} or {\n")
	require.False(t, ok)
}

// TestEdits applies each edit to the first statement of a thread body.
func TestEdits(t *testing.T) {
	for _, c := range []struct {
		name     string
		e        edit
		src, out string
	}{
		{"delete", deleteStmt, "read x\nwrite x", "write x"},
		{"lock pair", deleteLockPair, "acquire m\nread x\nrelease n\nrelease m\nwrite x", "read x\nrelease n\nwrite x"},
		{"unwrap", unwrapBlock, "atomic {\nread x\n}\nwrite x", "read x\nwrite x"},
		{"unwrap choose", unwrapBlock, "choose {\n} or {\nread x\n}", "read x"},
		{"drop branch", dropBranch, "choose {\nread x\n} or {\nskip\n} or {\nread y\n}", "choose {\nskip\n} or {\nread y\n}"},
		{"cut repeat", cutCount, "repeat 12 {\nread x\n}", "repeat 1 {\nread x\n}"},
		{"inline", inlineCall, "call Q\nread y", "write x\nread x\nread y"},
		{"drop name", dropName, "read x, y,z\nread y", "read y,z\nread y"},
	} {
		top, ok := parseLines("proc Q {\nwrite x\nread x\n}\nthread T {\n" + c.src + "\n}\n")
		require.True(t, ok, c.name)
		body := top[1].Bodies[0]
		got, ok := c.e(body, 0, editCtx{leaves: leafProcs(top)})
		require.True(t, ok, c.name)
		want, _ := parseLines(c.out)
		require.Equal(t, render(want), render(got), c.name)
	}
	top, _ := parseLines("thread W[4] {\n}\n")
	got, ok := cutCount(top, 0, editCtx{top: true})
	require.True(t, ok)
	require.Equal(t, "thread W[1] {\n}\n", render(got))
	for _, c := range []struct {
		e   edit
		src string
	}{{deleteLockPair, "acquire m\nread x"}, {unwrapBlock, "read x"}, {dropBranch, "choose {\n} or {\n}"},
		{cutCount, "repeat 1 {\n}"}, {inlineCall, "call T"}, {dropName, "read x"}} {
		top, _ := parseLines("thread T {\n" + c.src + "\n}\n")
		_, ok := c.e(top[0].Bodies[0], 0, editCtx{leaves: leafProcs(top)})
		require.False(t, ok, c.src)
	}
	_, ok = unwrapBlock(top, 0, editCtx{top: true})
	require.False(t, ok, "declarations are not unwrapped")
}
