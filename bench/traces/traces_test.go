package traces

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/bench"
)

// TestCriteriaSweepViewNP: conc bench's view-np family swept with both
// deciders: the conflict criterion calls every such trace a violation,
// the view criterion's verdicts follow the formulas, and both count the
// trace's events as their work.
func TestCriteriaSweepViewNP(t *testing.T) {
	pts, err := bench.Run(context.Background(), bench.Spec{Family: "view-np", Engines: []string{"conflict", "view"},
		Sizes: []int{8, 16, 32}, Seed: 1}, nil)
	require.NoError(t, err)
	require.Len(t, pts, 6)
	verdicts := map[string]int{}
	for _, p := range pts {
		require.True(t, p.Measured(), "%+v", p)
		require.Positive(t, p.States)
		verdicts[p.Engine+" "+p.Verdict]++
	}
	require.Equal(t, 3, verdicts["conflict violation"], "%v", verdicts)
	require.Positive(t, verdicts["view serializable"], "%v", verdicts)
	require.Positive(t, verdicts["view violation"], "%v", verdicts)
	_, err = bench.Run(context.Background(), bench.Spec{Family: "view-np", Engines: []string{"global"}, Sizes: []int{8}}, nil)
	require.ErrorContains(t, err, "does not decide traces")
}
