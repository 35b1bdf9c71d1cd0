package predict

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// The observed prefix up to the first violation can be most of a long trace
// (crypt's is 1.5·10⁶ events), but the cycle needs far less: the events
// that happen before one of its events, in the order program order, release
// → acquire of a lock, fork → the child's events and the child's last event
// → join make (the synchronisation order of the observed run). Restricted to
// that down-closed set the observed order is still a run: each thread runs a
// prefix of its projection; an included acquire brings the release before
// it, so the included operations on a lock are a prefix of the observed ones
// on it; a fork precedes its child's events and a joined thread's whole
// observed part precedes the join. The order of any two included events, and
// so every conflict and transaction of the cycle, is as observed. The trimmed
// witness is verified like any other before it is used.

// trimPlan cuts pl (the observed prefix up to line first) to the events
// that happen before an event of its cycle.
func (p *predictor) trimPlan(pl proj.Plan, first int64) (proj.Plan, error) {
	if !p.denseClocks() {
		return pl, nil // the whole prefix is a run too
	}
	need, ok, err := p.hbCut(pl.Cycle, first)
	if err != nil || !ok {
		return pl, err // a cycle event not in the prefix: keep the whole prefix
	}
	cut := make([]int64, len(need))
	for t := range cut {
		cut[t] = min(pl.Observed.Cut[t], need[t])
	}
	return proj.Plan{Cycle: pl.Cycle, Observed: &proj.ObservedCut{Cut: cut}}, nil
}

// hbCut is, per thread, how many edges of its projection happen before some
// event of the cycle (vector clocks over the observed prefix: one pass, k
// words per thread and per lock). It reports false if some cycle event is
// not in the prefix.
func (p *predictor) hbCut(cycle [][2]proj.Ref, first int64) ([]int64, bool, error) {
	k := len(p.s.Threads)
	want := map[proj.Ref]bool{}
	for _, c := range cycle {
		want[c[0]], want[c[1]] = true, true
	}
	vc := make([][]int64, k)
	for t := range vc {
		vc[t] = make([]int64, k)
	}
	lockVC := make([][]int64, len(p.s.Locks))
	need := make([]int64, k)
	open := make([]bool, k)
	r := p.sp.Reader()
	var ev trace.Event
	for len(want) > 0 {
		if err := r.Next(&ev); err == io.EOF || err == nil && ev.Line > first {
			break
		} else if err != nil {
			return nil, false, err
		}
		t := ev.Thread
		at := vc[t][t]
		syncBefore(vc, lockVC, &ev)
		switch ev.Op {
		case model.OpBegin:
			open[t] = true
		case model.OpEnd:
			open[t] = false
		}
		vc[t][t] += proj.EdgesOf(&ev, open[t])
		syncAfter(vc, lockVC, &ev)
		for q := at; q < vc[t][t]; q++ {
			if want[proj.Ref{Thread: int(t), Edge: q}] {
				delete(want, proj.Ref{Thread: int(t), Edge: q})
				joinVC(need, vc[t])
			}
		}
	}
	return need, len(want) == 0, nil
}

// syncBefore takes into ev's thread's clock what must precede ev: the last
// release of the lock it acquires, the whole of the thread it joins.
func syncBefore(vc, lockVC [][]int64, ev *trace.Event) {
	switch ev.Op {
	case model.OpAcquire:
		joinVC(vc[ev.Thread], lockVC[ev.Target]) // nothing before the lock's first release
	case model.OpJoin:
		joinVC(vc[ev.Thread], vc[ev.Target])
	}
}

// syncAfter passes ev on: a release to the lock's next acquirer, a fork to
// the child's first event.
func syncAfter(vc, lockVC [][]int64, ev *trace.Event) {
	switch ev.Op {
	case model.OpRelease:
		lockVC[ev.Target] = append(lockVC[ev.Target][:0], vc[ev.Thread]...)
	case model.OpFork:
		joinVC(vc[ev.Target], vc[ev.Thread])
	}
}

func joinVC(dst, src []int64) {
	for i, x := range src {
		dst[i] = max(dst[i], x)
	}
}
