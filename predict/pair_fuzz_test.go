package predict

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/verify"
)

// FuzzPairFinders feeds any input, read leniently, to the two-thread
// finders (and the pairs' products, pair_product.go, and the linear
// decision, internal/nested) under both semantics: they must not fail or crash, and a
// violation they answer must replay on the projection program (verify)
// and, on a small program, be brute's verdict. The seeds are random
// traces of TestPairFindersAreSound's shapes.
func FuzzPairFinders(f *testing.F) {
	for seed := uint64(0); seed < 16; seed++ {
		r := rand.New(rand.NewPCG(seed, 16))
		f.Add(randomPairShape(r).Trace(r))
	}
	brute, err := engines.Lookup("brute")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		rd, err := trace.NewReader(strings.NewReader(src), "f.std", trace.Options{Lenient: true})
		if err != nil {
			return
		}
		sp, err := proj.NewSpool("")
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		s, err := proj.Collect(context.Background(), rd, sp)
		if err != nil {
			return // unreadable input is the reader's to report
		}
		for _, lockEdges := range []bool{false, true} {
			p := &predictor{ctx: context.Background(), s: s, u: s.Users(), sp: sp,
				o: Options{Check: engines.Options{LockEdges: lockEdges}, Tuning: tuning.Limits{Budget: 20_000}}}
			products := func() (*Outcome, bool, error) {
				out, _, err := p.pairProducts(nil)
				return out, out != nil, err
			}
			nested := func() (*Outcome, bool, error) {
				out, _, err := p.nestedPairs()
				return out, out != nil, err
			}
			for _, find := range []func() (*Outcome, bool, error){func() (*Outcome, bool, error) { return pairsLockedBoth(p) }, p.pairs, products, nested} {
				out, ok, err := find()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					continue
				}
				full := fuzzProjection(t, src)
				if full == nil {
					continue
				}
				if err := verify.Witness(full, out.Result.Witness); err != nil {
					t.Fatalf("witness does not replay: %v\n%s", err, src)
				}
				if s.Events <= 24 && len(s.Threads) <= 3 {
					want, err := brute.Check(context.Background(), full, engines.Options{LockEdges: lockEdges, MaxDepth: 1000})
					if err == nil && want.Verdict == engines.Serializable {
						t.Fatalf("finder violation, brute serializable\n%s", src)
					}
				}
			}
		}
	})
}

// fuzzProjection is projectionOf for input that reads without --lenient,
// nil for other input (whose witnesses the replay gate has verified already).
func fuzzProjection(t *testing.T, src string) *model.Program {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	if err != nil {
		return nil
	}
	for {
		if _, err := r.Next(); err == io.EOF {
			return projectionOf(t, src)
		} else if err != nil {
			return nil
		}
	}
}
