package predicted

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/trace"
)

// The signature of a broken transaction names the sites of its path's
// leaving, interrupting and returning events: op@LOC where the trace has
// a location, op and variable where it has none.
func TestSign(t *testing.T) {
	src := "T1|begin|a.go:1\nT1|r(x)|a.go:2\nT2|w(x)\nT1|w(x)|a.go:3\nT1|end|a.go:4\n"
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	out, err := predict.Predict(context.Background(), r, predict.Options{})
	require.NoError(t, err)
	rep, err := Report(out)
	require.NoError(t, err)
	lines := SignatureLines(rep, out)
	require.ElementsMatch(t, []int64{2, 3, 4}, lines)
	locs, err := Locations(context.Background(), strings.NewReader(src), "t.std", lines)
	require.NoError(t, err)
	require.Equal(t, map[int64]string{2: "a.go:2", 4: "a.go:3"}, locs)
	Sign(rep, out, locs)
	require.Len(t, *rep.Witness.Broken, 1)
	require.Equal(t, "r@a.go:2 | w x | w@a.go:3", (*rep.Witness.Broken)[0].Signature)
	Sign(rep, out, nil)
	require.Equal(t, "r x | w x | w x", (*rep.Witness.Broken)[0].Signature)
}
