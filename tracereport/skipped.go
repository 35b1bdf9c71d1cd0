package tracereport

import (
	"fmt"
	"io"
	"strings"

	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// Skipped puts what --lenient skipped (st, the reader's count) into rep,
// for the JSON, and, when anything was skipped and notes is not nil (the
// text output), says it there: --lenient promises to skip bad lines and
// count them (docs/spec.md §3), and a verdict over a trace with lines left
// out must say so.
func Skipped(rep *report.Report, st trace.Stats, notes io.Writer) {
	n := st.SkippedLines()
	rep.Skipped = &n
	if n == 0 {
		return
	}
	rep.SkippedKinds = map[string]int64{}
	var kinds []string
	for k := range trace.NumSkips {
		if c := st.Skipped[k]; c > 0 {
			rep.SkippedKinds[k.String()] = c
			kinds = append(kinds, fmt.Sprintf("%d %s", c, k.Words()))
		}
	}
	if notes != nil {
		lines := "lines"
		if n == 1 {
			lines = "line"
		}
		fmt.Fprintf(notes, "conc: --lenient skipped %d %s (first at line %d): %s\n",
			n, lines, st.FirstSkipped, strings.Join(kinds, ", "))
	}
}
