package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/conc-dev/conc/gen"
)

// TraceDecider decides an STD trace, for the families that write traces
// (Axis.Trace): one of conc monitor's criteria. bench checks programs and
// reads no trace (the playground's lab runs it), so the deciders are
// registered from outside: package bench/traces registers conc monitor's,
// conflict and view, and conc bench links it.
type TraceDecider struct {
	Name string
	// Decide answers the trace std: its verdict (serializable, violation
	// or unknown) and its work as states.
	Decide func(ctx context.Context, std string) (verdict string, states int64, err error)
}

var deciders = map[string]TraceDecider{}

// RegisterTraceDecider adds a decider of the trace families.
func RegisterTraceDecider(d TraceDecider) { deciders[d.Name] = d }

// deciderList checks the --engines of a trace family: registered
// deciders.
func deciderList(names []string) error {
	for _, name := range names {
		if _, ok := deciders[name]; !ok {
			have := slices.Sorted(func(yield func(string) bool) {
				for n := range deciders {
					if !yield(n) {
						return
					}
				}
			})
			return fmt.Errorf("--engines: %q does not decide traces (a trace family's engines are %s)", name, strings.Join(have, ", "))
		}
	}
	return nil
}

// runTraces is Run for a trace family: each size's trace decided by each
// decider, the points as Run's.
func runTraces(ctx context.Context, sw sweep, each func(Point)) ([]Point, error) {
	var out []Point
	stopped := map[string]string{}
	for _, n := range sw.sizes {
		params := sw.axis.Params(n, 0)
		if err := gen.CheckBytes(sw.fam.Bytes(params), "--sizes"); err != nil {
			return out, fmt.Errorf("bench: %s at n=%d: %v", sw.s.Family, n, err)
		}
		std := sw.fam.Gen(rand.New(rand.NewPCG(sw.s.Seed, uint64(n)<<16)), params)
		for _, name := range sw.s.Engines {
			pt := Point{Engine: name, N: n, Threads: strings.Count(std, "|begin\n")}
			if why, ok := stopped[name]; ok {
				pt.Skipped = why
			} else {
				var err error
				if pt, err = measureTrace(ctx, deciders[name], std, sw.s, pt); err != nil {
					return out, err
				}
				if !pt.Measured() {
					stopped[name] = skipReason(pt, n)
				}
			}
			out = append(out, pt)
			if each != nil {
				each(pt)
			}
		}
	}
	return out, nil
}

// measureTrace decides std with d, Repeat times, keeping the fastest.
func measureTrace(ctx context.Context, d TraceDecider, std string, s Spec, pt Point) (Point, error) {
	for i := 0; i < max(s.Repeat, 1); i++ {
		one, err := decideTraceOnce(ctx, d, std, s.Timeout)
		if err != nil {
			return pt, fmt.Errorf("bench: %s at n=%d: %v", d.Name, pt.N, err)
		}
		if i == 0 || one.Time < pt.Time {
			pt.Verdict, pt.States, pt.Time, pt.Alloc = one.Verdict, one.States, one.Time, one.Alloc
		}
		if one.Verdict == "timeout" {
			break
		}
	}
	return pt, nil
}

func decideTraceOnce(ctx context.Context, d TraceDecider, std string, timeout time.Duration) (Point, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	verdict, states, err := d.Decide(ctx, std)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		return Point{}, err
	}
	if ctx.Err() != nil && verdict == "unknown" {
		verdict = "timeout"
	}
	return Point{Verdict: verdict, States: states, Time: elapsed, Alloc: after.TotalAlloc - before.TotalAlloc}, nil
}

// sortedSizes is s's sizes, sorted.
func sortedSizes(s Spec) []int {
	sizes := slices.Clone(s.Sizes)
	sort.Ints(sizes)
	return sizes
}
