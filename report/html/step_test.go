package html

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/report"
)

// TestStepScriptStaysOnThePage: the step control's script asks for
// nothing outside the page and stores nothing, and every labelled cycle
// arrow's label names the arrow it belongs to (data-label), so that the
// walk shows the label with its arrow.
func TestStepScriptStaysOnThePage(t *testing.T) {
	for _, bad := range []string{"fetch", "XMLHttpRequest", "http", "import", "src", "Storage", "cookie", "eval", "WebSocket"} {
		require.NotContains(t, stepScript, bad)
	}
	p, res := longRun(3)
	r, err := report.BuildLean(p, res)
	require.NoError(t, err)
	s := page(t, r)
	_, _, edges := drawn(s)
	require.NotEmpty(t, edges)
	var labels []string
	for _, m := range regexp.MustCompile(`<text class="edge-label[^"]*" [^>]*data-label="([^"]*)"`).FindAllStringSubmatch(s, -1) {
		labels = append(labels, m[1])
	}
	require.Equal(t, edges, labels)
	require.Contains(t, stepScript, "[data-edge], [data-label]")
}
