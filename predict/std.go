package predict

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// WriteSTD writes a witness run as an STD trace (docs/spec.md §3, §5): one event a
// line, THREAD|OP|LOC, where LOC is the event's line in the original trace.
// The begin and end that make an access outside a transaction a unary one
// carry the access's line and are left out, as in the original trace (a
// bare access is a unary transaction), and so are those of a lock, fork or
// join event under lock edges; conc monitor reads the file back and finds
// the same cycle.
func WriteSTD(w io.Writer, p *model.Program, wit *model.Witness) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	unary := unaryWrappers(wit, len(p.Threads))
	for i, st := range wit.Run {
		if st.Thread < 0 || int(st.Thread) >= len(p.Threads) {
			return fmt.Errorf("predict: run event %d: thread %d out of range", i, st.Thread)
		}
		if unary[i] {
			continue
		}
		op, target, err := stdOp(p, st.Ev)
		if err != nil {
			return fmt.Errorf("predict: run event %d: %v", i, err)
		}
		bw.WriteString(p.Threads[st.Thread].Name)
		bw.WriteByte('|')
		bw.WriteString(op)
		if st.Ev.Op.HasTarget() {
			bw.WriteByte('(')
			bw.WriteString(target)
			bw.WriteByte(')')
		}
		if st.Ev.Pos.IsValid() {
			bw.WriteByte('|')
			bw.Write(strconv.AppendInt(bw.AvailableBuffer(), int64(st.Ev.Pos.Line), 10))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// stdOp spells an event as STD's OP field: the op and, but for begin and
// end, the target's name to put in parentheses.
func stdOp(p *model.Program, e model.Event) (string, string, error) {
	var n int
	switch e.Op {
	case model.OpBegin, model.OpEnd:
		return trace.OpName[e.Op], "", nil
	case model.OpRead, model.OpWrite:
		n = len(p.Vars)
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		n = len(p.Locks)
	case model.OpFork, model.OpJoin:
		n = len(p.Threads)
	case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
		n = len(p.Msgs)
	default:
		return "", "", fmt.Errorf("%s is not a trace event", e.Op)
	}
	if e.Target < 0 || int(e.Target) >= n {
		return "", "", fmt.Errorf("%s target %d out of range", e.Op, e.Target)
	}
	return trace.OpName[e.Op], p.TargetName(e), nil
}

// unaryWrappers marks the begin and end events that wrap one access (or,
// under lock edges, one lock, fork or join event) on the same trace line:
// no trace has two events on a line, so they were made for a unary
// transaction. A begin that ends its thread's part of the run goes
// too, unless the cycle passes through it: an empty open transaction
// changes no conflict but under lock edges, where a fork before it and a
// join after it conflict with it. Events of threads out of range
// (WriteSTD rejects them) are passed over.
func unaryWrappers(w *model.Witness, threads int) []bool {
	run := w.Run
	mark := make([]bool, len(run))
	last := make([]int, threads) // per thread: its previous run event, -1 before the first
	for t := range last {
		last[t] = -1
	}
	unary := func(op model.Op) bool { return op.IsAccess() || op.IsSync() }
	for i, st := range run {
		if st.Thread < 0 || int(st.Thread) >= threads {
			continue
		}
		prev := last[st.Thread]
		last[st.Thread] = i
		if prev < 0 || !st.Ev.Pos.IsValid() {
			continue
		}
		pe := run[prev].Ev
		switch {
		case pe.Op == model.OpBegin && unary(st.Ev.Op) && pe.Pos == st.Ev.Pos:
			mark[prev] = true
		case unary(pe.Op) && st.Ev.Op == model.OpEnd && pe.Pos == st.Ev.Pos:
			mark[i] = true
		}
	}
	onCycle := map[int]bool{}
	for _, c := range w.Cycle {
		onCycle[c.From], onCycle[c.To] = true, true
	}
	for _, i := range last { // a begin its thread's part of the run ends with
		if i >= 0 && run[i].Ev.Op == model.OpBegin && !onCycle[i] {
			mark[i] = true
		}
	}
	return mark
}
