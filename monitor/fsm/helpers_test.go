package fsm

import "github.com/conc-dev/conc/model"

// flipLock is t's acq of lock l when it is free, its rel when t holds it
// (owner[l] follows); ok is false when another thread holds it. (The trace
// monitor's adversarial tests have their own.)
func flipLock(owner []int, l, t int) (op model.Op, ok bool) {
	switch owner[l] {
	case -1:
		owner[l] = t
		return model.OpAcquire, true
	case t:
		owner[l] = -1
		return model.OpRelease, true
	}
	return 0, false
}
