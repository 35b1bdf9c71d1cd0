package predict

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// newTestPredictor runs the first pass on src.
func newTestPredictor(t *testing.T, src string, o Options) *predictor {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	sp, err := proj.NewSpool(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { sp.Close() })
	s, err := proj.Collect(context.Background(), r, sp)
	require.NoError(t, err)
	return &predictor{ctx: context.Background(), s: s, u: s.Users(), sp: sp, o: o}
}
