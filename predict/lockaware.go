package predict

import (
	"context"
	"errors"
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// lockAware decides a trace with locks, fork or join. For the global
// engine the streaming check runs first with the synchronisation dropped:
// without lock edges, no violation there means none with it (dropping locks,
// fork and join only adds runs and, without lock edges, no conflict). With
// shortcuts (--engine auto) two cheap witnesses are tried before the product
// search: the normal run that check found, if it happens to respect the
// synchronisation, and the observed order. Both are checked by package
// verify against the projection, so a shortcut never answers wrongly; it
// only answers violation sooner.
func (p *predictor) lockAware(name string, shortcuts bool) (*Outcome, error) {
	eng, err := engines.Lookup(name)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	prefiltered := name == "global" && !p.o.Check.LockEdges
	if name == "global" {
		pl, found, c, err := p.lockFree()
		switch {
		case err != nil:
			return nil, err
		case prefiltered && !found && c.stop == "":
			res := engines.Result{Engine: "global", Verdict: engines.Serializable}
			res.Stats.States = c.states
			return &Outcome{Result: res}, nil
		case shortcuts && found:
			if out, ok, err := p.checked(pl, normalRunNote); err != nil || ok {
				return out, err
			}
		}
	}
	if shortcuts {
		if out, ok, err := p.observed(); err != nil || ok {
			return out, err
		}
	}
	return p.engine(eng, prefiltered)
}

// normalRunNote is the reason given with the first shortcut's witness.
const normalRunNote = "the normal run found without locks, fork and join respects them"

// checked materialises a plan over the projection with its synchronisation
// and returns it as the answer if verify accepts it.
func (p *predictor) checked(pl plan, why string) (*Outcome, bool, error) {
	m, err := p.s.materialise(p.sp, pl, false, p.o.Check.LockEdges)
	if err != nil {
		return nil, false, err
	}
	if verify.Witness(m.prefix, m.w) != nil || !p.s.forksFirst(m.w) {
		return nil, false, nil
	}
	res := engines.Result{Engine: "global", Verdict: engines.Violation, Witness: m.w, Reason: why}
	return &Outcome{Result: res, Program: m.prefix}, true, nil
}

// engine runs a program engine on the reduced projection and expands its
// witness back to the full one.
func (p *predictor) engine(eng *engines.Engine, prefiltered bool) (*Outcome, error) {
	rd, err := p.s.reduce(p.sp, p.u, p.o.Check.LockEdges, p.o.Check.IgnoreSync)
	if err != nil {
		return nil, err
	}
	opts := p.o.Check
	opts.IgnoreSync = false // already dropped
	if err := eng.Supports(rd.p, opts); err != nil {
		return nil, &UsageError{fmt.Sprintf("--engine %s: %v", eng.Name, err)}
	}
	check := eng.Check
	if prefiltered {
		check = engines.GlobalNoPrefilter
	}
	res, err := check(p.ctx, rd.p, opts)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return &Outcome{Result: engines.Result{Engine: eng.Name, Verdict: engines.Unknown, Reason: "deadline reached (--timeout)"}}, nil
		}
		return nil, fmt.Errorf("engine %s failed: %w", eng.Name, err)
	}
	if res.Engine == "" {
		res.Engine = eng.Name
	}
	if res.Verdict != engines.Violation || res.Witness == nil {
		res.Witness = nil
		return &Outcome{Result: res}, nil
	}
	pl, err := rd.expand(res.Witness)
	if err != nil {
		return nil, err
	}
	return p.violation(res, pl)
}

// forksFirst checks what the prefix program cannot: a thread's first event
// in the run comes after its fork, wherever the fork is in the trace.
func (s *summary) forksFirst(w *model.Witness) bool {
	done := make([]int64, len(s.threads)) // per thread: edges taken so far
	for _, st := range w.Run {
		u := st.Thread
		if f, ok := s.forker[u]; ok && done[u] == 0 && done[f.t] <= f.pos {
			return false
		}
		done[u]++
	}
	return true
}
