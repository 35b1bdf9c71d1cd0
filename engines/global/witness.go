package global

import (
	"fmt"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor/graph"
)

// witness turns the path the search found into a model.Witness: the run
// (the path's events), each thread's path through its automaton, and the
// cycle. The finite-state monitor only says that a cycle closed; the cycle
// itself comes from replaying the run through the exact conflict graph
// (graph.Graph), whose last step is the one that closed it. The witness
// is then shrunk to what the cycle needs (shrinkWitness).
func (s *searcher) witness(p *model.Program) (*model.Witness, error) {
	w := &model.Witness{Paths: make([][]model.Move, len(p.Threads)), LockEdges: s.lockEdges}
	g := graph.New(s.lockEdges)
	for _, st := range s.expandRuns(p) {
		w.Paths[st.t] = append(w.Paths[st.t], model.Move{From: st.from, Edge: st.e})
		ev := p.Threads[st.t].Auto.Out[st.from][st.e].Ev
		if ev.Op == model.OpSkip {
			continue
		}
		step := model.Step{Thread: st.t, Ev: ev}
		w.Run = append(w.Run, step)
		cyc, err := g.Step(step)
		if err != nil {
			return nil, err
		}
		if cyc != nil {
			w.Cycle = cyc
			return shrinkWitness(p, w), nil
		}
	}
	return nil, fmt.Errorf("global: internal error: the monitor saw a cycle that the conflict graph of its run (%d events) does not have", len(w.Run))
}

// expandRuns replaces each run of silent moves in s.found (a step with edge
// -n) by its n moves, each along the only edge of its state.
func (s *searcher) expandRuns(p *model.Program) []step {
	var out []step
	for _, st := range s.found {
		if st.e >= 0 {
			out = append(out, st)
			continue
		}
		q := st.from
		for range -st.e {
			out = append(out, step{st.t, q, 0})
			q = p.Threads[st.t].Auto.Out[q][0].To
		}
	}
	return out
}
