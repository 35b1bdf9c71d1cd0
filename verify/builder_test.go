package verify

import (
	"strings"
	"testing"

	"github.com/conc-dev/conc/model"
)

// straight builds a program of straight-line threads T1..Tk from specs such
// as "b r:x w:y e" (tokens b e r:V w:V acq:L rel:L fork:Tn join:Tn), with
// variables and locks numbered by first appearance. Every event has its own
// position, as a trace's events have their own lines.
func straight(t testing.TB, specs ...string) *model.Program {
	t.Helper()
	p := &model.Program{}
	vars, locks := map[string]int32{}, map[string]int32{}
	for i, spec := range specs {
		toks := strings.Fields(spec)
		a := &model.Automaton{Out: make([][]model.Edge, len(toks)+1)}
		for j, tok := range toks {
			ev := event(t, tok, vars, locks)
			ev.Pos = model.Pos{File: "test.std", Line: int64(100*(i+1) + j)}
			a.Out[j] = []model.Edge{{To: int32(j + 1), Ev: ev}}
		}
		p.Threads = append(p.Threads, &model.Thread{Name: "T" + string(rune('1'+i)), Auto: a})
	}
	p.Vars, p.Locks = names(vars), names(locks)
	return p
}

func event(t testing.TB, tok string, vars, locks map[string]int32) model.Event {
	op, arg, _ := strings.Cut(tok, ":")
	intern := func(m map[string]int32) int32 {
		if _, ok := m[arg]; !ok {
			m[arg] = int32(len(m))
		}
		return m[arg]
	}
	switch op {
	case "b":
		return model.Event{Op: model.OpBegin, Target: -1}
	case "e":
		return model.Event{Op: model.OpEnd, Target: -1}
	case "r":
		return model.Event{Op: model.OpRead, Target: intern(vars)}
	case "w":
		return model.Event{Op: model.OpWrite, Target: intern(vars)}
	case "acq":
		return model.Event{Op: model.OpAcquire, Target: intern(locks)}
	case "rel":
		return model.Event{Op: model.OpRelease, Target: intern(locks)}
	case "fork":
		return model.Event{Op: model.OpFork, Target: int32(arg[1] - '1')}
	case "join":
		return model.Event{Op: model.OpJoin, Target: int32(arg[1] - '1')}
	}
	t.Fatalf("bad token %q", tok)
	return model.Event{}
}

func names(m map[string]int32) []string {
	out := make([]string, len(m))
	for n, i := range m {
		out[i] = n
	}
	return out
}

// schedule builds the witness run of a straight-line program in which the
// threads move in the given order (thread numbers from 1), with its paths.
// With lock edges a lock, fork or join move outside a transaction makes
// the three events of its unary transaction, begin, the event, end.
func schedule(p *model.Program, order []int, cycle []model.Conflict, lockEdges bool) *model.Witness {
	w := &model.Witness{Paths: make([][]model.Move, len(p.Threads)), Cycle: cycle, LockEdges: lockEdges}
	open := make([]bool, len(p.Threads))
	for _, th := range order {
		t := th - 1
		q := int32(len(w.Paths[t]))
		w.Paths[t] = append(w.Paths[t], model.Move{From: q, Edge: 0})
		ev := p.Threads[t].Auto.Out[q][0].Ev
		step := func(ev model.Event) { w.Run = append(w.Run, model.Step{Thread: int32(t), Ev: ev}) }
		if lockEdges && ev.Op.IsSync() && !open[t] {
			step(model.Event{Op: model.OpBegin, Target: -1, Pos: ev.Pos})
			step(ev)
			step(model.Event{Op: model.OpEnd, Target: -1, Pos: ev.Pos})
			continue
		}
		step(ev)
		open[t] = ev.Op == model.OpBegin || open[t] && ev.Op != model.OpEnd
	}
	return w
}
