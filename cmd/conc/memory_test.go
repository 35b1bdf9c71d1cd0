package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMaxMemoryFlag: check, predict and monitor take --max-memory SIZE;
// a size without a unit below 1 MiB is refused with a hint, and the help
// states the default.
func TestMaxMemoryFlag(t *testing.T) {
	prog := file(t, "p.conc", lostUpdate)
	trace := file(t, "t.std", "T1|begin|1\nT1|r(x)|2\nT2|w(x)|3\nT1|w(x)|4\nT1|end|5\n")
	for _, args := range [][]string{
		{"check", prog}, {"predict", trace}, {"monitor", trace},
	} {
		o := conc(append(args, "--max-memory", "512MiB")...)
		require.Equal(t, exitViolation, o.code, "%v: %s", args, o.stderr)
		o = conc(append(args, "--max-memory", "5")...)
		require.Equal(t, exitUsage, o.code)
		require.Contains(t, o.stderr, `--max-memory "5": want at least 1MiB; a size needs a unit, e.g. 512MiB or 4GiB`)
		o = conc(args[0], "--help")
		require.Regexp(t, `-max-memory SIZE\s+give up with verdict unknown .* default: 3/4 of this machine's memory, [0-9.]+ [GMT]iB`, o.stdout)
	}
}

// TestCheckTooLargeForBudget: a program whose automata would not fit the
// budget is unknown (exit 3) before it is compiled, in text and JSON.
func TestCheckTooLargeForBudget(t *testing.T) {
	big := file(t, "big.conc", "vars x\nthread A { atomic { repeat 1000000 { repeat 29 { read x } } } }\nthread B { write x }\n")
	o := conc("check", big, "--max-memory", "64MiB")
	require.Equal(t, exitUnknown, o.code, o.stderr)
	require.Contains(t, o.stdout, "unknown: compiling the program's automata (29,000,005 states) would need about 2.7 GiB, "+
		"more than the memory budget of 64 MiB leaves (--max-memory raises it)\n")
	o = conc("check", big, "--max-memory", "64MiB", "--format", "json")
	require.Equal(t, exitUnknown, o.code, o.stderr)
	require.Contains(t, o.stdout, `"verdict": "unknown"`)
	require.Contains(t, o.stdout, `(--max-memory raises it)"`)
}

// TestPredictMemoryBudget: predict's lock-free chain search over 29
// writers of x that chain into each other every way, and a transaction
// whose second access no chain reaches (no violation: only a budget ends
// the search), ends in unknown at a budget the heap already exceeds,
// naming the budget and the flag.
func TestPredictMemoryBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("T0|begin\nT0|w(x)\nT0|w(z)\nT0|end\nTz|r(z)\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "T%d|w(x)\n", i)
	}
	trace := file(t, "stuck.std", b.String())
	o := conc("predict", trace, "--max-memory", "1MiB")
	require.Equal(t, exitUnknown, o.code, o.stdout+o.stderr)
	require.Regexp(t, `(?m)^unknown: memory budget of 1 MiB reached .*\(--max-memory raises it\)$`, o.stdout)
}
