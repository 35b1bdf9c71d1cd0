package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/docblocks"
)

// TestJoinOfOpenTransactionDocumented: docs/spec.md §8 and docs/traces.md
// show the same trace, on which conc (monitor and predict, --lock-edges)
// reports the cycle through T2's open transaction from line 5, where
// Velodrome reports none; without --lock-edges a join conflicts with
// nothing and the trace is serializable.
func TestJoinOfOpenTransactionDocumented(t *testing.T) {
	var traces []string
	for _, doc := range []string{"spec.md", "traces.md"} {
		md, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
		require.NoError(t, err)
		blocks := docblocks.Of(docblocks.Extract(string(md)), "std")
		require.Len(t, blocks, 1, "docs/%s has one std block: the open-transaction join", doc)
		traces = append(traces, blocks[0].Text)
	}
	require.Equal(t, traces[0], traces[1], "the two documents show the same trace")
	path := file(t, "join-open.std", traces[0])

	o := conc("monitor", path, "--lock-edges", "--cycles")
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, "first not serializable at trace line 5\n")
	require.Contains(t, o.stdout, "cycle T1 lines 1-6 → T2 lines 3-open → back to T1")
	// By default: T1 is broken by itself, through T2's open transaction.
	o = conc("monitor", path, "--lock-edges")
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, "  path T1 lines 1-6 → T2 lines 3-4 → back to T1:\n")
	o = conc("predict", path, "--lock-edges")
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, "the trace as observed is not serializable from line 5 on")

	for _, cmd := range []string{"monitor", "predict"} {
		o = conc(cmd, path)
		require.Equal(t, exitSerializable, o.code, "%s: %s%s", cmd, o.stdout, o.stderr)
	}
}
