package nested

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// summaryOf is the projection predict builds of src in its first pass:
// the summary and the spool both passes read.
func summaryOf(t testing.TB, src string) (*proj.Summary, *proj.Spool) {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	sp, err := proj.NewSpool("")
	require.NoError(t, err)
	t.Cleanup(func() { sp.Close() })
	s, err := proj.Collect(context.Background(), r, sp)
	require.NoError(t, err)
	return s, sp
}
