package predict

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/predict/internal/tuning"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/verify"
)

// testPredictor is the predictor Predict builds after its first pass.
func testPredictor(t testing.TB, src string, o Options) *predictor {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	sp, err := proj.NewSpool("")
	require.NoError(t, err)
	t.Cleanup(func() { sp.Close() })
	s, err := proj.Collect(context.Background(), r, sp)
	require.NoError(t, err)
	return &predictor{ctx: context.Background(), s: s, u: s.Users(), sp: sp, o: o}
}

// TestPairFindersAreSound: on thousands of random traces (nested and
// non-nested locking, 2 to 5 threads, fork and join; 100 quick, 3,000 with
// CONC_LONG=1) every violation either two-thread finder answers, under
// both semantics, is brute's verdict too, its witness replays on the
// projection program and, written as STD, is flagged by the trace monitor
// (with --lock-edges as well when found without). The finders must find
// some, and a pattern the lock-aware finder reports on a nested trace must
// replay: its conditions are then exact for the run it builds, so a
// refused witness there is a bug in the detection, not bad luck.
func TestPairFindersAreSound(t *testing.T) {
	n := testflag.N(100, 3000)
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	found := map[string]int{}
	refused := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 16))
		sh := randomPairShape(r)
		src := sh.Trace(r)
		full := projectionOf(t, src)
		for _, lockEdges := range []bool{false, true} {
			o := Options{Check: engines.Options{LockEdges: lockEdges}}
			for _, way := range []string{"hb", "locks"} {
				p := testPredictor(t, src, o)
				var out *Outcome
				var ok bool
				if way == "hb" {
					out, ok, err = p.pairs()
				} else {
					var f pair.LockFind
					var hit bool
					f, hit, err = findPairLock(p)
					require.NoError(t, err)
					if hit {
						out, ok, err = pairsLockedBoth(p)
						if !ok && sh.Nested && cleanContext(f) {
							refused++
							t.Errorf("seed %d: nested trace, lock-aware pattern %+v refused\n%s", seed, f, src)
						}
					}
				}
				require.NoError(t, err)
				if !ok {
					continue
				}
				found[way]++
				opts := o.Check
				opts.MaxDepth = 1000
				want, err := brute.Check(context.Background(), full, opts)
				require.NoError(t, err)
				require.Equal(t, engines.Violation, want.Verdict, "seed %d %s lock-edges %v\n%s", seed, way, lockEdges, src)
				require.NoError(t, verify.Witness(full, out.Result.Witness), "seed %d %s\n%s", seed, way, src)
				requireSTDRoundTrip(t, src, out, lockEdges)
				if !lockEdges {
					requireSTDRoundTrip(t, src, out, true)
				}
			}
		}
	}
	t.Logf("violations found: %v; lock-aware patterns refused on nested traces: %d", found, refused)
	require.Greater(t, found["hb"], n/50)
	require.Greater(t, found["locks"], n/10)
}

// cleanContext reports that the pattern's context is empty (no fork before
// either thread starts): the case the lock-aware finder's conditions cover
// without relying on the verification.
func cleanContext(f pair.LockFind) bool {
	for _, c := range f.Ctx {
		if c != 0 {
			return false
		}
	}
	return true
}

// TestPairLockedBeyondTheEngine: a generated locked trace (testdata:
// `conc gen random --trace --events 250 --threads 3 --vars 30 --locks 3
// --txn 4 --seed 1`) whose observed order is serializable, with the
// engine's table limit at one byte, as if the reduced projection were too
// large (as on a 10⁶-event trace): the product search alone answers
// unknown under both semantics, and the two-thread finders find a
// violation whose witness replays and is flagged by the monitor.
func TestPairLockedBeyondTheEngine(t *testing.T) {
	src := realExcerpt(t, "../testdata/traces/pair-locked.std")
	full := projectionOf(t, src)
	for _, lockEdges := range []bool{false, true} {
		out := predictString(t, src, Options{Tuning: tuning.Limits{MaxTable: 1}, Check: engines.Options{LockEdges: lockEdges}})
		require.Equal(t, engines.Violation, out.Result.Verdict, "lock edges %v: %s", lockEdges, out.Result.Reason)
		require.True(t, strings.HasPrefix(out.Result.Reason, pair.LockedNote), out.Result.Reason)
		require.NoError(t, verify.Witness(full, out.Result.Witness))
		requireSTDRoundTrip(t, src, out, true)
	}
}

// TestForkPrefilterIsSound: on random traces with fork (and join, locks,
// nested and non-nested sections; 300 quick, 6,000 with CONC_LONG=1)
// whenever the prefilter with fork order proves the trace serializable,
// under either semantics, brute agrees; it must prove some of each, and
// without lock edges some that the plain prefilter (fork dropped) finds
// violating.
func TestForkPrefilterIsSound(t *testing.T) {
	n := testflag.N(300, 6000)
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	proofs := map[bool]int{}
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 17))
		sh := randomPairShape(r)
		sh.Fork = true
		src := sh.Trace(r)
		for _, lockEdges := range []bool{false, true} {
			p := testPredictor(t, src, Options{Check: engines.Options{LockEdges: lockEdges}})
			if !lockEdges {
				_, found, _, err := p.lockFree()
				require.NoError(t, err)
				if !found {
					continue // the plain prefilter proves it already
				}
			}
			ok, err := p.forkPrefilter()
			require.NoError(t, err)
			if !ok {
				continue
			}
			proofs[lockEdges]++
			want, err := brute.Check(context.Background(), projectionOf(t, src), engines.Options{MaxDepth: 1000, LockEdges: lockEdges})
			require.NoError(t, err)
			require.Equal(t, engines.Serializable, want.Verdict, "seed %d lock edges %v\n%s", seed, lockEdges, src)
		}
	}
	t.Logf("fork-order proofs (by lock edges): %v of %d", proofs, n)
	require.Greater(t, proofs[false], n/100)
	require.Greater(t, proofs[true], n/100)
}

// TestForkOrderProvesCryptShape: crypt's shape in small (the main thread's
// transaction writes the input before it forks a worker that reads it, and
// then works on its own slice). With fork dropped the main transaction is
// interrupted (write x0, the worker reads x0 and x1, write x1); fork order
// rules that out. Under a one-byte table limit, as if the projection were
// crypt's, this was unknown; now the proof answers.
func TestForkOrderProvesCryptShape(t *testing.T) {
	src := "0|begin\n0|w(x0)\n0|w(x1)\n0|fork(1)\n1|begin\n1|r(x0)\n1|r(x1)\n1|w(y1)\n1|end\n" +
		"0|w(y0)\n0|r(x0)\n0|end\n"
	out := predictString(t, src, Options{Tuning: tuning.Limits{MaxTable: 1}})
	require.Equal(t, engines.Serializable, out.Result.Verdict, out.Result.Reason)
	require.Equal(t, forkPrefilterNote, out.Result.Reason)
	want, err := engines.Lookup("brute")
	require.NoError(t, err)
	res, err := want.Check(context.Background(), projectionOf(t, src), engines.Options{})
	require.NoError(t, err)
	require.Equal(t, engines.Serializable, res.Verdict)
}

// TestPairLockedTwoSections: the classic atomicity bug, one atomic method
// with two critical sections of one lock, and another thread's section
// writing between them. T1 holds l just before its second access, so the
// first schedule (T1 waiting there) cannot run T2's section; the second
// (T1 waiting between its sections, T2 running on until it holds nothing)
// can. Under a one-byte table limit this was unknown.
func TestPairLockedTwoSections(t *testing.T) {
	src := "T1|begin\nT1|acq(l)\nT1|r(x)\nT1|rel(l)\nT1|acq(l)\nT1|w(x)\nT1|rel(l)\nT1|end\n" +
		"T2|acq(l)\nT2|w(x)\nT2|rel(l)\n"
	full := projectionOf(t, src)
	for _, lockEdges := range []bool{false, true} {
		out := predictString(t, src, Options{Tuning: tuning.Limits{MaxTable: 1}, Check: engines.Options{LockEdges: lockEdges}})
		require.Equal(t, engines.Violation, out.Result.Verdict, out.Result.Reason)
		require.True(t, strings.HasPrefix(out.Result.Reason, pair.LockedNote), out.Result.Reason)
		require.NoError(t, verify.Witness(full, out.Result.Witness))
		requireSTDRoundTrip(t, src, out, true)
	}
}

// TestPairLockedManyLocks: with 64 locks taken first by thread 0, the
// random traces' locks have numbers beyond the lock sets' words (they
// share the last bit): the lock-aware pattern still answers, soundly.
func TestPairLockedManyLocks(t *testing.T) {
	brute, err := engines.Lookup("brute")
	require.NoError(t, err)
	found := 0
	for seed := uint64(0); seed < uint64(testflag.N(40, 400)); seed++ {
		r := rand.New(rand.NewPCG(seed, 18))
		sh := randomPairShape(r)
		sh.Threads, sh.Locks, sh.Fork = 2, 1+r.IntN(3), false
		var b strings.Builder
		for l := 0; l < 64; l++ {
			fmt.Fprintf(&b, "T0|acq(d%d)\nT0|rel(d%d)\n", l, l)
		}
		src := b.String() + sh.Trace(r)
		out, ok, err := pairsLockedBoth(testPredictor(t, src, Options{}))
		require.NoError(t, err)
		if !ok {
			continue
		}
		found++
		full := projectionOf(t, src)
		want, err := brute.Check(context.Background(), full, engines.Options{MaxDepth: 2000})
		require.NoError(t, err)
		require.Equal(t, engines.Violation, want.Verdict, "seed %d\n%s", seed, src)
		require.NoError(t, verify.Witness(full, out.Result.Witness))
	}
	t.Logf("found %d", found)
	require.Positive(t, found)
}

// TestUnknownSaysThePairsRan: when the two-thread searches find nothing and
// the engine cannot run, the reason says they ran and that this is no proof.
func TestUnknownSaysThePairsRan(t *testing.T) {
	src := "T1|begin\nT1|acq(l)\nT1|w(x)\nT1|rel(l)\nT1|end\nT2|begin\nT2|acq(l)\nT2|w(x)\nT2|rel(l)\nT2|end\n"
	out := predictString(t, src, Options{Tuning: tuning.Limits{MaxTable: 1}, Check: engines.Options{LockEdges: true}})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "too large for the global engine")
	require.Contains(t, out.Result.Reason, "the two-thread searches found no violation, which is no proof")
}

// findPairLock runs both passes of the lock-aware pattern's search.
func findPairLock(p *predictor) (pair.LockFind, bool, error) {
	stop := func() bool { return false }
	pi, f, ok, err := pair.IndexLocked(p.s, p.sp, stop)
	if err != nil || ok || pi == nil {
		return f, ok, err
	}
	return pair.FindLocked(p.s, p.sp, pi, stop)
}

// pairsLockedBoth is the lock-aware step with both its passes.
func pairsLockedBoth(p *predictor) (*Outcome, bool, error) {
	out, ok, err := p.pairsLocked(false)
	if err != nil || ok {
		return out, ok, err
	}
	return p.pairsLocked(true)
}

// TestPairsNeedALockFreeViolation: lockAware skips the two-thread searches
// when the lock-free check finds no violation, since their cycles are of
// access conflicts and their runs, without synchronisation, runs of the
// program that check decides. On random traces, under both semantics,
// they find nothing whenever it finds nothing.
func TestPairsNeedALockFreeViolation(t *testing.T) {
	n := testflag.N(300, 3000)
	none := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 16))
		src := randomPairShape(r).Trace(r)
		for _, lockEdges := range []bool{false, true} {
			p := testPredictor(t, src, Options{Check: engines.Options{LockEdges: lockEdges}})
			_, found, c, err := p.lockFree()
			require.NoError(t, err)
			if found || c.Stop != "" {
				continue
			}
			none++
			_, ok, err := p.pairs()
			require.NoError(t, err)
			require.False(t, ok, "seed %d lock edges %v: hb pattern\n%s", seed, lockEdges, src)
			_, ok, err = findPairLock(p)
			require.NoError(t, err)
			require.False(t, ok, "seed %d lock edges %v: lock-aware pattern\n%s", seed, lockEdges, src)
		}
	}
	t.Logf("lock-free check clear: %d of %d", none, 2*n)
	require.Greater(t, none, n/10)
}
