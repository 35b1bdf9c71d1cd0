package report

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// A run of unary transactions that ends where an elided middle begins
// reads as one run, and no conflict is claimed across the elision (the
// shape of the JGF sor excerpt's first group).
func TestGroupUnaryRunBeforeElision(t *testing.T) {
	ends := []int{131, 132, 133, 134}
	r := &Report{Verdict: "violation", Engine: "monitor", First: 242}
	r.Violations = []Violation{{Thread: "0", Begin: 5, Out: 78, Elided: 10, ElidedAt: 4,
		Cycle: []TraceStep{{"1", 131, 131}, {"1", 132, 132}, {"1", 133, 133}, {"1", 134, 134}}}}
	for i := range ends {
		r.Violations = append(r.Violations, Violation{Thread: "1", Begin: ends[i], End: &ends[i], Out: ends[i], In: ends[i]})
	}
	events := map[int]TraceEvent{78: NewTraceEvent(78, "0", model.OpWrite, "w", "a[47]", "40")}
	for i, line := range ends {
		events[line] = NewTraceEvent(line, "1", model.OpRead, "r", []string{"a[47]", "b[46]", "b[48]", "b[47]"}[i], "89")
	}
	GroupViolations(r, func(line int) (TraceEvent, bool) { e, ok := events[line]; return e, ok })
	r.ShowGroups = 1
	var b bytes.Buffer
	require.NoError(t, WriteText(&b, r, TextOptions{Quiet: true}))
	require.Contains(t, b.String(), "group 1: 1 violating transaction, first at line 5, on a[47], b[46], b[48], b[47]\n"+
		"  signature: w@40 | w@40→r@89 | …\n"+
		"  cycle T0 lines 5-open → T1 lines 131-134 (4 unary events) → ... 10 more transactions ... → back to T0:\n"+
		"    T0's write of a[47] at line 78 comes before T1's read of a[47] at line 131\n"+
		"    T1's 4 unary events at lines 131 to 134 follow one another (program order of T1)\n"+
		"... and 1 more group (--max-groups 0 shows all)\n")
}
