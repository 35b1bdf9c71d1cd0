package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/trace"
)

// randomTrace draws a small trace with trace.Gen (conc gen random --trace):
// its events, to be written under any naming.
func randomTrace(rng *rand.Rand) []trace.Event {
	g := trace.NewGen(trace.GenOptions{
		Seed: rng.Uint64(), Events: int64(8 + rng.IntN(50)),
		Threads: pick(rng, 1, 2, 2, 3, 3, 4), Vars: 1 + rng.IntN(3), Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(3),
		Unprotected: rng.Float64(), Unary: rng.Float64() / 3, Nested: rng.Float64() / 4,
		Writes: 0.3 + 0.7*rng.Float64(), Fork: rng.IntN(3) == 0,
	})
	var evs []trace.Event
	buf := make([]trace.Event, 64)
	for {
		n, err := g.Read(buf)
		evs = append(evs, buf[:n]...)
		if err == io.EOF {
			return evs
		}
	}
}

// stdText writes evs as STD with name naming threads ('T'), variables ('x')
// and locks ('l').
func stdText(evs []trace.Event, name func(kind byte, id int32) string) string {
	var b []byte
	for _, e := range evs {
		b = trace.AppendSTD(b, e, name)
	}
	return string(b)
}

// traceRenaming names threads, variables and locks with fresh names, a
// different permutation of the ids for each kind.
func traceRenaming(rng *rand.Rand) func(kind byte, id int32) string {
	names := map[byte][]string{}
	for _, k := range []byte{'T', 'x', 'l'} {
		names[k] = freshNames(rng, 16) // trace.Gen's ids stay below 4
	}
	return func(kind byte, id int32) string { return names[kind][id] }
}

// withOwnThread inserts, at random places and in order, the events of a
// thread Own that touches only its own variable (and maybe its own lock).
func withOwnThread(rng *rand.Rand, std string) string {
	lines := strings.SplitAfter(std, "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	var own []string
	for i := 1 + rng.IntN(3); i > 0; i-- {
		txn := pick(rng, []string{"begin", "r(own_v)", "w(own_v)", "end"}, []string{"w(own_v)"},
			[]string{"acq(own_l)", "begin", "w(own_v)", "end", "rel(own_l)"},
			[]string{"begin", "acq(own_l)", "r(own_v)", "rel(own_l)", "r(own_v)", "end"})
		for _, op := range txn {
			own = append(own, "Own|"+op+"\n")
		}
	}
	out := make([]string, 0, len(lines)+len(own))
	for len(lines)+len(own) > 0 {
		if len(own) > 0 && (len(lines) == 0 || rng.IntN(len(lines)+len(own)) < len(own)) {
			out, own = append(out, own[0]), own[1:]
		} else {
			out, lines = append(out, lines[0]), lines[1:]
		}
	}
	return strings.Join(out, "")
}

// TestMetamorphicTrace: conc monitor's and conc predict's verdicts, with
// and without --lock-edges, are unchanged by renaming, CRLF, gzip and a
// thread of private events inserted anywhere; a monitor violation is a
// predict violation (the observed order is one of the reorderings), and a
// predict witness is a trace conc monitor flags.
//
// Each run opens a trace reader with megabyte buffers (about a millisecond
// of CPU), so a case runs two variants, not all: one transformation (each
// in turn) and all of them composed; and --lock-edges on odd seeds.
func TestMetamorphicTrace(t *testing.T) {
	dir := t.TempDir() // one for all cases: the files of a case replace the last case's
	for seed := 0; seed < metamorphicCases(120); seed++ {
		rng := seeded(seed)
		evs := randomTrace(rng)
		std := stdText(evs, trace.GenName)
		var flags []string
		if seed%2 == 1 {
			flags = []string{"--lock-edges"}
		}
		ctx := fmt.Sprintf("seed %d, flags %v, trace:\n%s", seed, flags, std)
		mon := traceAnswer(t, ctx, dir, "monitor", std, "", flags)
		pre := traceAnswer(t, ctx, dir, "predict", std, "", flags)
		if mon.code == exitViolation && pre.code != exitViolation {
			t.Fatalf("%s\nmonitor: violation, predict: %v", ctx, pre)
		}
		for _, v := range traceVariants(t, rng, dir, evs, seed/2) {
			vctx := fmt.Sprintf("%s\n%s variant:\n%s", ctx, v.name, v.std)
			for _, c := range []struct {
				cmd  string
				base answer
			}{{"monitor", mon}, {"predict", pre}} {
				if got := traceAnswer(t, vctx, dir, c.cmd, v.std, v.file, flags); got != c.base {
					t.Fatalf("%s\n%s: %v, on the original %v", vctx, c.cmd, got, c.base)
				}
			}
		}
	}
}

// traceVariant is a transformed trace, as text or as a (gzip) file.
type traceVariant struct{ name, std, file string }

// traceVariants are transformation i mod 4 of evs, and all four composed.
func traceVariants(t *testing.T, rng *rand.Rand, dir string, evs []trace.Event, i int) []traceVariant {
	std := stdText(evs, trace.GenName)
	var one traceVariant
	switch i % 4 {
	case 0:
		one = traceVariant{"renamed", stdText(evs, traceRenaming(rng)), ""}
	case 1:
		one = traceVariant{"crlf", crlf(std), ""}
	case 2:
		one = traceVariant{"gzip", std, gzipPath(t, dir, "one.std.gz", std)}
	default:
		one = traceVariant{"own thread", withOwnThread(rng, std), ""}
	}
	all := crlf(withOwnThread(rng, stdText(evs, traceRenaming(rng))))
	return []traceVariant{one, {"renamed, own thread, crlf, gzip", all, gzipPath(t, dir, "all.std.gz", all)}}
}

// traceAnswer runs cmd on the trace std (standard input) or file; for a
// predict violation it also writes the witness (to dir) and checks that
// conc monitor flags it.
func traceAnswer(t *testing.T, ctx, dir, cmd, std, file string, flags []string) answer {
	t.Helper()
	in := "-"
	if file != "" {
		in = file
	}
	args := append([]string{cmd, in}, flags...)
	var wout string
	if cmd == "predict" {
		wout = filepath.Join(dir, "w.std")
		args = append(args, "--witness-out", wout)
	}
	a, _ := jsonAnswer(t, ctx, std, args...)
	if cmd == "predict" && a.code == exitViolation {
		w, err := os.ReadFile(wout)
		require.NoError(t, err, ctx)
		if m := conc(append([]string{"monitor", wout}, flags...)...); m.code != exitViolation {
			t.Fatalf("%s\nthe predict witness is not a violation for monitor (exit %d):\n%s", ctx, m.code, w)
		}
	}
	return a
}

// gzipPath writes std gzip'd to dir/name and returns its path.
func gzipPath(t *testing.T, dir, name, std string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, gzipped(t, []byte(std)), 0o644))
	return p
}
