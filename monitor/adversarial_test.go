package monitor

import (
	"bytes"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/internal/montest"
	"github.com/conc-dev/conc/trace"
)

// adversarialShape shapes adversarialTrace's adversarial traces.
type adversarialShape struct {
	threads, vars, locks int
	events               int
	pBegin, pEnd         float64 // chance an idle thread begins, an open one ends
	pNest                float64 // chance of an inner begin/end while open
	pSync                float64 // chance of a lock, fork or join event
	pWrite               float64
	fork                 bool // threads other than T0 start only once forked
	joinOpen             bool // a thread may be joined inside a transaction
}

// adversarialTrace draws a well-formed trace (the reader accepts it) with many
// transactions open at once, long transactions, re-reads, forks, joins,
// locks in and out of transactions and nesting.
func adversarialTrace(rng *rand.Rand, sh adversarialShape) []trace.Event {
	depth := make([]int, sh.threads)
	started := make([]bool, sh.threads)
	joined := make([]bool, sh.threads)
	forked := make([]bool, sh.threads)
	owner := make([]int, sh.locks)
	for i := range owner {
		owner[i] = -1
	}
	var evs []trace.Event
	emit := func(t int, op model.Op, target int32) {
		started[t] = true
		evs = append(evs, trace.Event{Thread: int32(t), Op: op, Target: target, Loc: -1, Line: int64(len(evs) + 1)})
	}
	runnable := func(t int) bool {
		return !joined[t] && (!sh.fork || t == 0 || forked[t])
	}
	for tries := 0; len(evs) < sh.events && tries < 20*sh.events; tries++ {
		t := rng.IntN(sh.threads)
		if !runnable(t) {
			continue
		}
		r := rng.Float64()
		switch {
		case depth[t] == 0 && r < sh.pBegin:
			depth[t]++
			emit(t, model.OpBegin, -1)
		case depth[t] > 0 && r < sh.pEnd:
			depth[t]--
			emit(t, model.OpEnd, -1)
		case depth[t] > 0 && r < sh.pEnd+sh.pNest:
			depth[t]++
			emit(t, model.OpBegin, -1)
		case r < sh.pEnd+sh.pNest+sh.pSync:
			adversarialSync(rng, sh, t, owner, depth, started, joined, forked, emit)
		default:
			op := model.OpRead
			if rng.Float64() < sh.pWrite {
				op = model.OpWrite
			}
			emit(t, op, int32(rng.IntN(sh.vars)))
		}
	}
	return evs
}

// adversarialSync emits a lock, fork or join event of t if one is allowed.
func adversarialSync(rng *rand.Rand, sh adversarialShape, t int, owner, depth []int, started, joined, forked []bool,
	emit func(int, model.Op, int32)) {
	u := rng.IntN(sh.threads)
	switch k := rng.IntN(4); {
	case k < 2 && sh.locks > 0:
		l := rng.IntN(sh.locks)
		if op, ok := montest.FlipLock(owner, l, t); ok {
			emit(t, op, int32(l))
		}
	case k == 2 && u != t && !started[u] && !joined[u] && (!sh.fork || !forked[u]):
		forked[u] = true
		emit(t, model.OpFork, int32(u))
	case k == 3 && u != t && !joined[u] && (sh.joinOpen || depth[u] == 0 && !holds(owner, u)):
		joined[u] = true
		emit(t, model.OpJoin, int32(u))
	}
}

func holds(owner []int, u int) bool {
	for _, o := range owner {
		if o == u {
			return true
		}
	}
	return false
}

// randomShape draws a shape: up to 12 threads, often more transactions
// open at once than the configurations below give slots.
func randomShape(rng *rand.Rand) adversarialShape {
	return adversarialShape{
		threads:  2 + rng.IntN(11),
		vars:     1 + rng.IntN(6),
		locks:    rng.IntN(3),
		events:   10 + rng.IntN(60),
		pBegin:   rng.Float64(),
		pEnd:     rng.Float64() * 0.3,
		pNest:    rng.Float64() * 0.1,
		pSync:    rng.Float64() * 0.3,
		pWrite:   0.1 + rng.Float64()*0.8,
		fork:     rng.IntN(2) == 0,
		joinOpen: rng.IntN(4) == 0,
	}
}

// randomConfig draws a collector threshold and a set of free slots: few
// slots (0 to 4, anywhere among the 64), or all of them.
func randomConfig(rng *rand.Rand) naiveConfig {
	gc := []int{1, 2, 3, 1 << 20}[rng.IntN(4)]
	var free uint64
	switch rng.IntN(5) {
	case 0:
		free = ^uint64(0)
	default:
		for range rng.IntN(5) {
			free |= 1 << rng.IntN(64)
		}
	}
	return naiveConfig{gc, free}
}

// adversarialMismatch runs the monitor under cfg and returns a description of
// the first difference from the naive answer, or "".
func adversarialMismatch(evs []trace.Event, lockEdges bool, cfg naiveConfig) string {
	_, msg := monitorAgainst(naiveCheck(evs, lockEdges), evs, lockEdges, cfg)
	return msg
}

// monitorAgainst runs the monitor under cfg and describes the first
// difference of its answer from want (a panic included), or "".
func monitorAgainst(want naiveResult, evs []trace.Event, lockEdges bool, cfg naiveConfig) (got TraceResult, msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	got = runMonitor(evs, TraceOptions{LockEdges: lockEdges, MaxCycle: 1000}, cfg.gcMin, cfg.free)
	return got, naiveMismatch(want, got)
}

// naiveMismatch describes the first difference of got from the naive
// answer (the first violating line, the transactions on cycles, their
// count), or "".
func naiveMismatch(want naiveResult, got TraceResult) string {
	if want.first != got.First || got.Violation != (want.first > 0) {
		return fmt.Sprintf("first: naive %d, monitor %d (violation %v)", want.first, got.First, got.Violation)
	}
	gotSet := map[int64]naiveTxn{}
	for _, v := range got.Violations {
		gotSet[v.Begin] = naiveTxn{v.Thread, v.Begin, v.End}
	}
	if fmt.Sprint(gotSet) != fmt.Sprint(want.cyclic) || int(got.Count) != len(want.cyclic) {
		return fmt.Sprintf("cyclic: naive %v, monitor %v (count %d)", want.cyclic, gotSet, got.Count)
	}
	return ""
}

// adversarialReadBack reads evs' STD text back, as conc would see it; ok is
// false if the reader rejects it.
func adversarialReadBack(evs []trace.Event) ([]trace.Event, string, bool) {
	var b []byte
	for _, e := range evs {
		b = trace.AppendSTD(b, e, trace.GenName)
	}
	r, err := trace.NewReader(bytes.NewReader(b), "adversarial.std", trace.Options{})
	if err != nil {
		return nil, "", false
	}
	var out []trace.Event
	buf := make([]trace.Event, 64)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", false
		}
	}
	// Rename the reader's ids back to the generator's names' numbers.
	for i := range out {
		e := &out[i]
		e.Thread = adversarialID(r.Threads().Name(e.Thread))
		switch {
		case e.Op.IsAccess():
			e.Target = adversarialID(r.Vars().Name(e.Target))
		case e.Op == model.OpAcquire || e.Op == model.OpRelease:
			e.Target = adversarialID(r.Locks().Name(e.Target))
		case e.Op == model.OpFork || e.Op == model.OpJoin:
			e.Target = adversarialID(r.Threads().Name(e.Target))
		}
	}
	return out, string(b), true
}

func adversarialID(name string) int32 {
	n, _ := strconv.Atoi(name[1:])
	return int32(n)
}

// adversarialShrink removes events one at a time while the trace stays valid
// and the monitor still disagrees with the naive answer.
func adversarialShrink(evs []trace.Event, lockEdges bool, cfg naiveConfig) []trace.Event {
	fails := func(c []trace.Event) bool {
		c = append([]trace.Event(nil), c...)
		for i := range c {
			c[i].Line = int64(i + 1)
		}
		_, _, ok := adversarialReadBack(c)
		return ok && adversarialMismatch(c, lockEdges, cfg) != ""
	}
	for changed := true; changed; {
		changed = false
		for i := len(evs) - 1; i >= 0; i-- {
			c := append(append([]trace.Event(nil), evs[:i]...), evs[i+1:]...)
			if fails(c) {
				evs, changed = c, true
			}
		}
	}
	for i := range evs {
		evs[i].Line = int64(i + 1)
	}
	return evs
}

// TestTraceMonitorAdversarial: adversarial random traces (more open
// transactions than slots, few slots anywhere among the 64, long
// transactions, forks, joins, locks, nesting) under random collector and
// slot settings agree with the naive full conflict graph. 1,500 traces with
// CONC_LONG=1, 300 in the quick suite.
func TestTraceMonitorAdversarial(t *testing.T) {
	n, seed := adversarialRuns(300, 1500)
	rng := rand.New(rand.NewPCG(seed, 99))
	violations := 0
	for i := range n {
		sh := randomShape(rng)
		evs := adversarialTrace(rng, sh)
		for _, lockEdges := range []bool{false, true} {
			want := naiveCheck(evs, lockEdges)
			if want.first > 0 {
				violations++
			}
			for range 3 {
				cfg := randomConfig(rng)
				got, msg := monitorAgainst(want, evs, lockEdges, cfg)
				if msg != "" {
					small := adversarialShrink(append([]trace.Event(nil), evs...), lockEdges, cfg)
					rb, text, _ := adversarialReadBack(small)
					t.Fatalf("trace %d lockEdges=%v gcMin=%d free=%#x (%d slots): %s\nshrunk: %s\nas read back: %s\n%s",
						i, lockEdges, cfg.gcMin, cfg.free, bits.OnesCount64(cfg.free), msg,
						adversarialMismatch(small, lockEdges, cfg), adversarialMismatch(rb, lockEdges, cfg), text)
				}
				for _, v := range got.Violations {
					checkReportedCycle(t, want, v, lockEdges, fmt.Sprintf("trace %d cfg %+v\n%s", i, cfg, montest.FmtTrace(evs)))
				}
			}
		}
	}
	require.Greater(t, violations, n/10)
	require.Less(t, violations, 2*n-n/10)
}

// TestTraceMonitorManyOpen: more open transactions than the 64 slots
// (every slot free), so the garbage rule switches off and on again. 150
// traces with CONC_LONG=1, 30 in the quick suite.
func TestTraceMonitorManyOpen(t *testing.T) {
	n, seed := adversarialRuns(30, 150)
	rng := rand.New(rand.NewPCG(seed, 101))
	for i := range n {
		sh := randomShape(rng)
		sh.threads = 60 + rng.IntN(20)
		sh.events = 200 + rng.IntN(250)
		sh.pBegin, sh.pEnd = 0.95, rng.Float64()*0.05
		sh.fork = rng.IntN(4) == 0
		sh.vars = 1 + rng.IntN(10)
		evs := adversarialTrace(rng, sh)
		for _, lockEdges := range []bool{false, true} {
			for _, cfg := range []naiveConfig{{1, ^uint64(0)}, {1 << 20, ^uint64(0)}, {3, ^uint64(0) >> 1}} {
				if msg := adversarialMismatch(evs, lockEdges, cfg); msg != "" {
					small := adversarialShrink(append([]trace.Event(nil), evs...), lockEdges, cfg)
					_, text, _ := adversarialReadBack(small)
					t.Fatalf("trace %d lockEdges=%v gcMin=%d free=%#x: %s\nshrunk: %s\n%s",
						i, lockEdges, cfg.gcMin, cfg.free, msg, adversarialMismatch(small, lockEdges, cfg), text)
				}
			}
		}
	}
}

// TestTraceMonitorGenFewSlots: the generator's traces, with more threads
// than slots (one to three slots, high bits included) and collection
// after almost every transaction. 200 traces with CONC_LONG=1, 50 in the
// quick suite.
func TestTraceMonitorGenFewSlots(t *testing.T) {
	n, seed := adversarialRuns(50, 200)
	rng := rand.New(rand.NewPCG(seed, 103))
	configs := []naiveConfig{{1, 1}, {1, 1 << 63}, {2, 0b11 << 40}, {1 << 20, 0b111}, {1, 1<<5 | 1<<33 | 1<<62}}
	for range n {
		o := montest.GenRange{Events: [2]int{20, 200}, Threads: [2]int{2, 12}, Vars: [2]int{1, 20}, TxnLen: [2]int{1, 30},
			Locks: 4, Hot: 4, Unprotected: 0.5, Nested: 0.3}.Draw(rng, rng.Uint64())
		checkAgainstNaive(t, o, configs)
	}
}

// TestTraceMonitorForkBeforeAnyAccess: with lock edges, a transaction holding
// only a fork that completes as garbage before any variable exists.
func TestTraceMonitorForkBeforeAnyAccess(t *testing.T) {
	evs := []trace.Event{
		{Thread: 0, Op: model.OpBegin, Target: -1, Line: 1},
		{Thread: 0, Op: model.OpFork, Target: 1, Line: 2},
		{Thread: 0, Op: model.OpEnd, Target: -1, Line: 3},
	}
	for _, cfg := range naiveConfigs {
		require.Empty(t, adversarialMismatch(evs, true, cfg))
	}
}

// adversarialRuns is how many traces to draw (quick, or long with
// CONC_LONG=1, unless MONITOR_N says) and the seed (1 unless MONITOR_SEED
// says): longer hunts need no edit.
func adversarialRuns(quick, long int) (int, uint64) {
	n := testflag.N(quick, long)
	if v, err := strconv.Atoi(os.Getenv("MONITOR_N")); err == nil {
		n = v
	}
	seed := uint64(1)
	if v, err := strconv.ParseUint(os.Getenv("MONITOR_SEED"), 10, 64); err == nil {
		seed = v
	}
	return n, seed
}
