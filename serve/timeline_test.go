package serve

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
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

// TestWitnessDrawing: POST /api/timeline answers the page conc check
// --html writes (report/html): every drawn event carries its index in the
// JSON's witness.run, each conflict of the cycle is an arrow named by its
// pair, and the page stands alone (no script or style from elsewhere).
func TestWitnessDrawing(t *testing.T) {
	for _, name := range []string{"fig1.conc", "bank.conc", "three_cycle.conc"} {
		rep := violationReport(t, name)
		check := func(context.Context, []byte, Query) (*report.Report, error) { return rep, nil }
		w := post(t, New(Config{Check: check, Explain: noExplain}), "/api/timeline", tiny)
		require.Equal(t, http.StatusOK, w.Code, name)
		require.Equal(t, "text/html; charset=utf-8", w.Header().Get("Content-Type"))
		page := w.Body.String()
		var want []string
		for i := range rep.Witness.Len() {
			want = append(want, fmt.Sprint(i))
		}
		require.ElementsMatch(t, want, unique(attrs(page, "data-event")), name)
		want = nil
		for _, c := range rep.Witness.Cycle {
			want = append(want, fmt.Sprintf("%d-%d", c.From, c.To))
		}
		require.ElementsMatch(t, want, attrs(page, "data-edge"), name)
		require.NotRegexp(t, `(?i)<script[^>]+src=|<link[^>]+href=|(src|href)="https?://`, page, name)
	}
}

// unique is xs without repeats, in order.
func unique(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// attrs lists the values of attribute a in page, in order.
func attrs(page, a string) []string {
	var out []string
	for _, m := range regexp.MustCompile(a+`="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		out = append(out, m[1])
	}
	return out
}
