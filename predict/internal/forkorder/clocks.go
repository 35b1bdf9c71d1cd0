package forkorder

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// forkClocks are, per forked thread, the clock (in edges, program order and
// fork only) of its fork.
func forkClocks(s *proj.Summary, sp *proj.Spool) ([][]int64, error) {
	k := len(s.Threads)
	vc, clk := make([][]int64, k), make([][]int64, k)
	for t := range vc {
		vc[t] = make([]int64, k)
	}
	open := make([]bool, k)
	r := sp.Reader()
	var ev trace.Event
	for {
		if err := r.Next(&ev); err == io.EOF {
			return clk, nil
		} else if err != nil {
			return nil, err
		}
		t := ev.Thread
		switch ev.Op {
		case model.OpBegin:
			open[t] = true
		case model.OpEnd:
			open[t] = false
		}
		vc[t][t] += proj.EdgesOf(&ev, open[t])
		if ev.Op == model.OpFork {
			hb.Join(vc[ev.Target], vc[t])
			clk[ev.Target] = append([]int64(nil), vc[t]...)
		}
	}
}
