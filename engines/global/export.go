package global

import (
	"context"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// NoPrefilter is the global engine without its profile prefilter, for
// a caller that has already run an equivalent check (conc predict runs its
// streaming profile check over the whole trace first, which is cheaper than
// extracting (2v)² profile relations from a projection of millions of
// events). Every other reduction stays on.
func NoPrefilter(ctx context.Context, p *model.Program, opts engines.Options) (engines.Result, error) {
	cfg := allReductions
	cfg.prefilter = false
	return decide(ctx, p, opts, cfg)
}
