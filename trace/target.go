package trace

import "github.com/conc-dev/conc/model"

// TargetName names ev's target from r's tables: its variable, lock or
// thread, "" for begin and end.
func (r *Reader) TargetName(ev Event) string {
	switch ev.Op {
	case model.OpRead, model.OpWrite:
		return r.vars.Name(ev.Target)
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		return r.locks.Name(ev.Target)
	case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
		return r.msgs.Name(ev.Target)
	case model.OpFork, model.OpJoin:
		return r.threads.Name(ev.Target)
	}
	return ""
}
