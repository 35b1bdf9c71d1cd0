package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"time"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// Spec is one sweep: a family's instances at sizes Sizes and thread counts
// Threads, each decided by each engine in Engines.
type Spec struct {
	Family  string
	Engines []string
	Sizes   []int
	Threads []int         // nil: the family's default
	Timeout time.Duration // per decision; 0: none
	Repeat  int           // decisions per point; the fastest counts (0: 1)
	Seed    uint64        // for the families that draw at random
	Options engines.Options
}

// Point is one measurement: engine Engine on the instance of size N with K
// threads. Skipped says why there is no measurement (the engine does not
// support the program, or was slower than the timeout at a smaller size).
type Point struct {
	Engine  string
	N, K    int
	Threads int    // threads of the generated program
	Verdict string // serializable, violation, unknown or timeout
	States  int64  // as the engine counts them (0: the engine keeps none)
	Time    time.Duration
	Alloc   uint64 // bytes allocated by the decision
	Skipped string
}

// Run measures the sweep s, reporting each point to each (if not nil) as
// soon as it is taken. Sizes run in increasing order; an engine that times
// out or answers unknown (a bound) at one size is skipped at the larger
// ones with the same k.
func Run(ctx context.Context, s Spec, each func(Point)) ([]Point, error) {
	sw, err := plan(s)
	if err != nil {
		return nil, err
	}
	if sw.axis.Trace {
		return runTraces(ctx, sw, each)
	}
	var out []Point
	for _, k := range sw.ks {
		stopped := map[string]string{}
		for _, n := range sw.sizes {
			p, err := sw.instance(n, k)
			if err != nil {
				return out, err
			}
			for _, e := range sw.engs {
				pt := Point{Engine: e.Name, N: n, K: k, Threads: len(p.Threads)}
				if why, ok := stopped[e.Name]; ok {
					pt.Skipped = why
				} else {
					pt, err = measure(ctx, e, p, s, pt)
					if err != nil {
						return out, err
					}
					if pt.Skipped != "" || !pt.Measured() {
						stopped[e.Name] = skipReason(pt, n)
					}
				}
				out = append(out, pt)
				if each != nil {
					each(pt)
				}
			}
		}
	}
	return out, nil
}

// sweep is a checked Spec: its family, engines, thread counts and sizes
// (sorted).
type sweep struct {
	s         Spec
	axis      Axis
	fam       gen.Family
	engs      []*engines.Engine
	ks, sizes []int
}

// plan checks s and lays out its sweep.
func plan(s Spec) (sweep, error) {
	axis, fam, err := LookupAxis(s.Family)
	if err != nil {
		return sweep{}, err
	}
	if len(s.Engines) == 0 || len(s.Sizes) == 0 {
		return sweep{}, errors.New("bench: want at least one engine and one size")
	}
	sw := sweep{s: s, axis: axis, fam: fam, ks: s.Threads}
	if axis.Trace {
		sw.sizes = sortedSizes(s)
		return sw, deciderList(s.Engines)
	}
	for _, name := range s.Engines {
		e, err := engines.Lookup(name)
		if err != nil {
			return sweep{}, err
		}
		sw.engs = append(sw.engs, e)
	}
	if err := axis.CheckThreads(s.Family, s.Threads); err != nil {
		return sweep{}, err
	}
	if len(sw.ks) == 0 {
		sw.ks = []int{axis.DefaultK}
	}
	sw.sizes = append([]int(nil), s.Sizes...)
	sort.Ints(sw.sizes)
	return sw, nil
}

// instance is the family's program at size n and k threads, drawn under
// a seed of its own.
func (sw sweep) instance(n, k int) (*model.Program, error) {
	s := sw.s
	params := sw.axis.Params(n, k)
	if err := gen.CheckBytes(sw.fam.Bytes(params), "--sizes or --threads"); err != nil {
		return nil, fmt.Errorf("bench: %s at n=%d k=%d: %v", s.Family, n, k, err)
	}
	rng := rand.New(rand.NewPCG(s.Seed, uint64(n)<<16|uint64(k)))
	src := sw.fam.Gen(rng, params)
	p, err := lang.Compile(fmt.Sprintf("%s-n%d-k%d.conc", s.Family, n, k), []byte(src))
	if err != nil {
		return nil, fmt.Errorf("bench: %s at n=%d k=%d does not compile: %v", s.Family, n, k, err)
	}
	return p, nil
}

func skipReason(pt Point, n int) string {
	switch {
	case pt.Skipped != "":
		return pt.Skipped
	case pt.Verdict == "timeout":
		return fmt.Sprintf("timed out at n=%d", n)
	}
	return fmt.Sprintf("unknown at n=%d", n)
}

// Measured reports whether p is a full decision: not skipped, not cut off
// by the timeout, and not unknown (an engine that stopped at a bound has
// not done the work the size asks for, so its cost says nothing about it).
func (p Point) Measured() bool {
	return p.Skipped == "" && p.Verdict != "timeout" && p.Verdict != "unknown"
}

// measure decides p with e, Repeat times, keeping the fastest.
func measure(ctx context.Context, e *engines.Engine, p *model.Program, s Spec, pt Point) (Point, error) {
	if err := e.Supports(p, s.Options); err != nil {
		pt.Skipped = "unsupported: " + err.Error()
		return pt, nil
	}
	for i := 0; i < max(s.Repeat, 1); i++ {
		one, err := decideOnce(ctx, e, p, s)
		if err != nil {
			return pt, fmt.Errorf("bench: engine %s at n=%d k=%d: %v", e.Name, pt.N, pt.K, err)
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

// decideOnce runs one decision under the timeout, with the allocation
// counter read around it (after a collection, so earlier garbage does not
// count).
func decideOnce(ctx context.Context, e *engines.Engine, p *model.Program, s Spec) (Point, error) {
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	res, err := e.Check(ctx, p, s.Options)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	timedOut := ctx.Err() != nil && (res.Verdict == engines.Unknown || errors.Is(err, context.DeadlineExceeded))
	if err != nil && !timedOut {
		return Point{}, err
	}
	pt := Point{Verdict: res.Verdict.String(), States: res.Stats.States, Time: elapsed, Alloc: after.TotalAlloc - before.TotalAlloc}
	if timedOut {
		pt.Verdict = "timeout"
	}
	return pt, nil
}
