package fsm

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Event steps the monitor with event ev of thread t; it reports whether the
// run is now not serializable. The tests' way in: it checks
// the event's range (a bad generated run fails loudly) and computes its
// letters, which engines precompute per automaton edge for Step.
func (m *FSM) Event(t int, ev model.Event) (bool, error) {
	if !m.threadOK(t) {
		return m.Violated(), fmt.Errorf("monitor: thread %d out of range", t)
	}
	if (ev.Op.IsAccess() || ev.Op.IsSync()) && !m.a.targetOK(ev) {
		return m.Violated(), fmt.Errorf("monitor: %s target %d out of range", ev.Op, ev.Target)
	}
	l := m.a.Of(t, ev)
	return m.Step(t, &l), nil
}

func (m *FSM) threadOK(t int) bool { return t >= 0 && t < m.a.threads }

// targetOK reports whether ev's target is in range for the alphabet.
func (a *Alphabet) targetOK(ev model.Event) bool {
	n := 0
	switch ev.Op {
	case model.OpRead, model.OpWrite:
		n = len(a.read)
	case model.OpAcquire, model.OpRelease:
		n = len(a.rel)
	case model.OpFork, model.OpJoin:
		n = a.threads
	}
	return ev.Target >= 0 && int(ev.Target) < n
}
