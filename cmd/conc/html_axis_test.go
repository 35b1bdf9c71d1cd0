package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

var axisLabelRe = regexp.MustCompile(`<text class="axis" [^>]*>([^<]*)</text>`)

// TestHTMLAxisSpeaksAsTheText: a predicted witness's timeline counts
// trace lines, as the text names its events (file:line), and the cycle's
// lines are on its axis, and it fits a 1,500-pixel page; a program's counts run events, as its text does.
func TestHTMLAxisSpeaksAsTheText(t *testing.T) {
	o := conc("predict", "../../testdata/traces/jgf-sor-reduced.std", "--html", "-")
	require.Equal(t, exitViolation, o.code, o.stderr)
	require.Contains(t, o.stdout, `">line</text>`)
	var labels []string
	for _, m := range axisLabelRe.FindAllStringSubmatch(o.stdout, -1) {
		labels = append(labels, m[1])
	}
	for _, line := range []string{"66", "95", "107", "70"} { // the cycle's, as the text names them
		require.Contains(t, labels, line)
	}
	require.NotContains(t, labels, "121", "the run index of the last event, not its line")
	w := regexp.MustCompile(`<svg class="timeline"[^>]* width="(\d+)"`).FindStringSubmatch(o.stdout)
	require.NotNil(t, w)
	require.LessOrEqual(t, len(w[1]), 4)
	require.LessOrEqual(t, w[1], "1340", "wider than a 1,500-pixel page: the arrow closing the cycle is out of view")

	c := conc("check", "../../examples/fig1.conc", "--html", "-")
	require.Equal(t, exitViolation, c.code, c.stderr)
	require.Contains(t, c.stdout, `">event</text>`)
	require.Contains(t, c.stdout, `<text class="axis" x="`)
}
