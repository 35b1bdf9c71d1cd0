// Package traces registers conc monitor's two criteria as the deciders
// of conc bench's trace families (bench.RegisterTraceDecider): conflict,
// the trace monitor's pass (monitor/pass), linear in the trace, and view,
// the view-serializability checker (monitor/view), exponential in the
// worst case. conc bench links it; the playground's lab, which reads no
// trace, does not.
package traces

import (
	"context"
	"strings"

	"github.com/conc-dev/conc/bench"
	"github.com/conc-dev/conc/monitor/pass"
	"github.com/conc-dev/conc/monitor/view"
	"github.com/conc-dev/conc/trace"
)

func init() {
	bench.RegisterTraceDecider(bench.TraceDecider{Name: "conflict", Decide: conflict})
	bench.RegisterTraceDecider(bench.TraceDecider{Name: "view", Decide: viewDecide})
}

func reader(std string) (*trace.Reader, error) {
	return trace.NewReader(strings.NewReader(std), "bench.std", trace.Options{Orderings: true})
}

// conflict is conc monitor's default criterion; its work is the events
// it reads, each once.
func conflict(ctx context.Context, std string) (string, int64, error) {
	r, err := reader(std)
	if err != nil {
		return "", 0, err
	}
	res, err := pass.Check(ctx, r, pass.Options{})
	switch {
	case err != nil:
		return "", 0, err
	case res.Violation:
		return "violation", res.Stats.Events, nil
	case res.Stopped != "":
		return "unknown", res.Stats.Events, nil
	}
	return "serializable", res.Stats.Events, nil
}

// viewDecide is the view criterion; its work is the events it reads and
// the states its search visits.
func viewDecide(ctx context.Context, std string) (string, int64, error) {
	r, err := reader(std)
	if err != nil {
		return "", 0, err
	}
	res, err := view.Check(ctx, r, view.Options{MaxStates: 1 << 40})
	if err != nil {
		return "", 0, err
	}
	return res.Verdict.String(), res.Stats.Events + res.Stats.States, nil
}
