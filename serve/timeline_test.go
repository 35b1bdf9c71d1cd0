package serve

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/examples"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/report"
)

// violationReport decides an example with the global engine.
func violationReport(t *testing.T, name string) *report.Report {
	t.Helper()
	src, err := fs.ReadFile(examples.Files, name)
	require.NoError(t, err)
	p, err := lang.Compile(name, src)
	require.NoError(t, err)
	eng, err := engines.Lookup("global")
	require.NoError(t, err)
	res, err := eng.Check(context.Background(), p, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Violation, res.Verdict, name)
	rep, err := report.BuildLean(p, res)
	require.NoError(t, err)
	return rep
}

// TestWitnessDrawing: the page draws every event of the run once, with
// its index in the JSON's witness.run, and every conflict of the cycle as
// an arrow named by its pair; the text report follows.
func TestWitnessDrawing(t *testing.T) {
	for _, name := range []string{"fig1.conc", "bank.conc", "three_cycle.conc"} {
		rep := violationReport(t, name)
		var page strings.Builder
		require.NoError(t, writeTimeline(&page, rep))
		var want []string
		for i := range rep.Witness.Len() {
			want = append(want, fmt.Sprint(i))
		}
		require.Equal(t, want, attrs(page.String(), "data-event"), name)
		want = nil
		for _, c := range rep.Witness.Cycle {
			want = append(want, fmt.Sprintf("%d-%d", c.From, c.To))
		}
		require.Equal(t, want, attrs(page.String(), "data-edge"), name)
		require.Contains(t, page.String(), "conflict cycle", name)
	}
}

// attrs lists the values of attribute a in page, in order.
func attrs(page, a string) []string {
	var out []string
	for _, m := range regexp.MustCompile(a+`="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		out = append(out, m[1])
	}
	return out
}
