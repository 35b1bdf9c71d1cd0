package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// goExamples are examples/go's packages, each test not atomic and its
// correct twin, with the code location of an access on the broken one's
// cycle and its function (the report names them).
var goExamples = []struct{ pkg, broken, twin, loc, fn string }{
	{"transfer", "TestTransfer", "TestTransferAtomic", "examples/go/transfer/transfer.go:", "Transfer"},
	{"handoff", "TestPut", "TestPutAtomic", "examples/go/handoff/handoff.go:", `\(\*Queue\)\.Put`},
	{"cache", "TestGet", "TestGetAtomic", "examples/go/cache/cache.go:", `\(\*Cache\)\.Get`},
	{"counter", "TestInc", "TestIncAtomic", "examples/go/counter/counter.go:", `\(\*Counter\)\.load`},
	{"stock", "TestTake", "TestTakeAtomic", "examples/go/stock/stock.go:", `\(\*Stock\)\.Take`},
}

// recordOne records the one test of an examples/go package and returns
// the trace's path.
func recordOne(t *testing.T, pkg, test string) string {
	t.Helper()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run([]string{"record", "-o", dir, "./examples/go/" + pkg, "--", "-run", "^" + test + "$", "-count=1"}, strings.NewReader(""), &out, &errb)
	require.Equal(t, exitSerializable, code, "record %s %s: %s%s", pkg, test, out.String(), errb.String())
	traces, err := filepath.Glob(filepath.Join(dir, "*.std.gz"))
	require.NoError(t, err)
	require.Len(t, traces, 1, out.String())
	return traces[0]
}

// TestGoExamplesEndToEnd: conc record, then conc predict, on the Go
// examples (docs/record.md): each broken test is a violation whose
// signature and --all groups point at its Go source, each twin is proved
// serializable. The quick suite records the first example, the
// long run all four.
func TestGoExamplesEndToEnd(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	t.Chdir(filepath.Join(wd, "..", ".."))
	for _, ex := range goExamples[:testflag.N(1, len(goExamples))] {
		broken := recordOne(t, ex.pkg, ex.broken)
		o := conc("predict", broken)
		require.Equal(t, exitViolation, o.code, "%s: %s%s", ex.broken, o.stdout, o.stderr)
		require.Regexp(t, `signature: \S+@`+ex.loc+`\d+ `+ex.fn+` \| `, o.stdout, "%s: the signature names the Go source line and function", ex.broken)
		all := conc("predict", "--all", broken)
		require.Equal(t, exitViolation, all.code, "%s: %s%s", ex.broken, all.stdout, all.stderr)
		require.Contains(t, all.stdout, "signature: ", ex.broken)
		require.Contains(t, all.stdout, ex.loc, "%s: the groups name the Go source\n%s", ex.broken, all.stdout)

		twin := recordOne(t, ex.pkg, ex.twin)
		o = conc("predict", twin)
		require.Equal(t, exitSerializable, o.code, "%s: %s%s", ex.twin, o.stdout, o.stderr)
		m := conc("monitor", twin)
		require.Equal(t, exitSerializable, m.code, "%s: %s%s", ex.twin, m.stdout, m.stderr)
	}
}
