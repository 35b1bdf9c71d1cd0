package predict

import (
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The two-thread finders (steps 4a, 5b and 5c) and the trim of the
// observed witness keep a vector clock per thread, dense: threads² words,
// and a fork costs a copy of one. A fork chain of 10,000 threads made that
// 2.4 GB before the observed order, which violates, was answered. Beyond
// denseClockThreads threads they are not run (they only ever answer
// violation, or prove what a later unknown quotes) and the observed
// witness is the whole observed prefix, untrimmed.
const denseClockThreads = 2048

// manyThreadsNote says why the two-thread finders were not run.
const manyThreadsNote = "the two-thread searches were not run: more than 2048 threads (their vector clocks take threads² words)"

// denseClocks reports whether the trace has few enough threads for them.
func (p *predictor) denseClocks() bool { return len(p.s.Threads) <= denseClockThreads }

// hbCut is, per thread, how many edges of its projection happen before some
// event of the cycle in the observed prefix up to line first; false if some
// cycle event is not in the prefix (package predict/internal/hb).
func (p *predictor) hbCut(cycle [][2]proj.Ref, first int64) ([]int64, bool, error) {
	return hb.Cut(p.s, p.sp, cycle, first)
}
