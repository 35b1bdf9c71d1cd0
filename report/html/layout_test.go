package html

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/report"
)

var svgWidth = regexp.MustCompile(`<svg class="timeline"[^>]* width="(\d+)"`)

// TestTimelineFitsThePage: a long witness's timeline, its cycle at both
// ends of what is drawn, is no wider than a 1,500-pixel page shows, and
// the style scales a wider one down to its box, so that the arrow closing
// the cycle is in view without scrolling.
func TestTimelineFitsThePage(t *testing.T) {
	for _, n := range []int{5, 19, 100, 5000} {
		p, res := longRun(n)
		r, err := report.BuildLean(p, res)
		require.NoError(t, err)
		s := page(t, r)
		m := svgWidth.FindStringSubmatch(s)
		require.NotNil(t, m, "n=%d: no timeline", n)
		w, _ := strconv.Atoi(m[1])
		require.LessOrEqual(t, w, fitW, "n=%d", n)
	}
	require.Regexp(t, `svg\.timeline \{[^}]*max-width: 100%;[^}]*height: auto;`, CSS)
}

// TestNarrowColumnsShortenTargets: a target under its mark is cut to its
// column's width, so that neighbouring targets do not run into each other.
func TestNarrowColumnsShortenTargets(t *testing.T) {
	d := &diagram{lanes: []string{"A"}}
	for range 40 {
		d.cols = append(d.cols, column{label: "1"})
	}
	d.layout()
	require.Equal(t, minColW, d.ws[0])
	require.LessOrEqual(t, charW*float64(d.targetChars(0)), float64(minColW-6))
}
