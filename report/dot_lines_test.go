package report

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDOTBoxesNameLines: with TxnLines (conc predict) a DOT box is named
// as the text's cycle line names its transaction, thread, ordinal, begin
// and end lines, "open" for one the run stops inside; alike whether the
// run is spelled out or lean. Without it the box is named as before.
func TestDOTBoxesNameLines(t *testing.T) {
	dot := func(r *Report) string {
		var b bytes.Buffer
		require.NoError(t, WriteDOT(&b, r))
		return b.String()
	}
	for _, open := range []bool{false, true} {
		p, res := bank()
		wantA := `t0 [label="A#1 (lines 6-9)\l0: begin  test.conc:6:3\l`
		if open { // A's end left out: the run stops inside A
			res.Witness.Run = res.Witness.Run[:6]
			wantA = `t0 [label="A#1 (lines 6-open)\l0: begin  test.conc:6:3\l`
		}
		full, err := Build(p, res)
		require.NoError(t, err)
		lean, err := BuildLean(p, res)
		require.NoError(t, err)
		require.NotContains(t, dot(full), "(lines")
		full.TxnLines, lean.TxnLines = true, true
		got := dot(full)
		require.Equal(t, got, dot(lean))
		require.Contains(t, got, wantA)
		require.Contains(t, got, `t1 [label="B#1 (lines 6-9)\l2: begin  test.conc:6:3\l`)
		var text bytes.Buffer
		require.NoError(t, WriteText(&text, full, TextOptions{Quiet: true}))
		require.Contains(t, text.String(), "conflict cycle A#1 (lines 6-"+map[bool]string{false: "9", true: "open"}[open]+") → B#1 (lines 6-9) → A#1:\n")
	}
}
