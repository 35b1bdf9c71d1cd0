package engines

import (
	"context"

	"github.com/conc-dev/conc/model"
)

// GlobalNoPrefilter is the global engine without its profile prefilter, for
// a caller that has already run an equivalent check (conc predict runs its
// streaming profile check over the whole trace first, which is cheaper than
// extracting (2v)² profile relations from a projection of millions of
// events). Every other reduction stays on.
func GlobalNoPrefilter(ctx context.Context, p *model.Program, opts Options) (Result, error) {
	cfg := globalAll
	cfg.prefilter = false
	return globalRun(ctx, p, opts, cfg)
}
