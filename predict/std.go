package predict

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/conc-dev/conc/model"
)

// WriteSTD writes a witness run as an STD trace (SPEC §3, §5): one event a
// line, THREAD|OP|LOC, where LOC is the event's line in the original trace.
// The begin and end that make an access outside a transaction a unary one
// carry the access's line and are left out, as in the original trace (a
// bare access is a unary transaction); conc monitor reads the file back and
// finds the same cycle.
func WriteSTD(w io.Writer, p *model.Program, wit *model.Witness) error {
	bw := bufio.NewWriter(w)
	unary := unaryWrappers(wit.Run)
	for i, st := range wit.Run {
		if st.Thread < 0 || int(st.Thread) >= len(p.Threads) {
			return fmt.Errorf("predict: run event %d: thread %d out of range", i, st.Thread)
		}
		if unary[i] {
			continue
		}
		op, err := stdOp(p, st.Ev)
		if err != nil {
			return fmt.Errorf("predict: run event %d: %v", i, err)
		}
		bw.WriteString(p.Threads[st.Thread].Name)
		bw.WriteByte('|')
		bw.WriteString(op)
		if st.Ev.Pos.IsValid() {
			bw.WriteByte('|')
			bw.WriteString(strconv.Itoa(int(st.Ev.Pos.Line)))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// stdOp spells an event as STD's OP field.
func stdOp(p *model.Program, e model.Event) (string, error) {
	var names []string
	var f string
	switch e.Op {
	case model.OpBegin:
		return "begin", nil
	case model.OpEnd:
		return "end", nil
	case model.OpRead, model.OpWrite:
		names, f = p.Vars, map[model.Op]string{model.OpRead: "r", model.OpWrite: "w"}[e.Op]
	case model.OpAcquire, model.OpRelease:
		names, f = p.Locks, map[model.Op]string{model.OpAcquire: "acq", model.OpRelease: "rel"}[e.Op]
	case model.OpFork, model.OpJoin:
		for _, t := range p.Threads {
			names = append(names, t.Name)
		}
		f = e.Op.String()
	default:
		return "", fmt.Errorf("%s is not a trace event", e.Op)
	}
	if e.Target < 0 || int(e.Target) >= len(names) {
		return "", fmt.Errorf("%s target %d out of range", e.Op, e.Target)
	}
	return f + "(" + names[e.Target] + ")", nil
}

// unaryWrappers marks the begin and end events that wrap one access on the
// same trace line: no trace has two events on a line, so they were made for
// a unary transaction. A begin that ends its thread's part of the run goes
// too: an empty open transaction changes no conflict.
func unaryWrappers(run []model.Step) []bool {
	mark := make([]bool, len(run))
	last := map[int32]int{} // thread -> its previous run event
	for i, st := range run {
		prev, ok := last[st.Thread]
		last[st.Thread] = i
		if !ok || !st.Ev.Pos.IsValid() {
			continue
		}
		pe := run[prev].Ev
		switch {
		case pe.Op == model.OpBegin && st.Ev.Op.IsAccess() && pe.Pos == st.Ev.Pos:
			mark[prev] = true
		case pe.Op.IsAccess() && st.Ev.Op == model.OpEnd && pe.Pos == st.Ev.Pos:
			mark[i] = true
		}
	}
	for _, i := range last { // a begin its thread's part of the run ends with
		if run[i].Ev.Op == model.OpBegin {
			mark[i] = true
		}
	}
	return mark
}
