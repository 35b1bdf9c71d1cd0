package pass

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// notAtomic drops the begin and end of the blocks that
// Options.NotAtomic names, so that their events count as unary (or
// as parts of the transactions nested inside them), as RAPID's
// ExcludeMethods does for excluded methods. It keeps, per thread, which
// of the open begins it dropped.
type notAtomic struct {
	is    func(begin *trace.Event) bool
	stack [][]bool // per thread: per open begin, whether it was dropped
}

// filter compacts evs in place without the dropped begins and ends.
func (f *notAtomic) filter(evs []trace.Event) []trace.Event {
	if f == nil {
		return evs
	}
	k := 0
	for i := range evs {
		if f.keep(&evs[i]) {
			evs[k] = evs[i]
			k++
		}
	}
	return evs[:k]
}

// keep tells whether ev stays.
func (f *notAtomic) keep(ev *trace.Event) bool {
	if ev.Op != model.OpBegin && ev.Op != model.OpEnd {
		return true
	}
	t := ev.Thread
	for int(t) >= len(f.stack) {
		f.stack = append(f.stack, nil)
	}
	s := f.stack[t]
	if ev.Op == model.OpBegin {
		drop := f.is(ev)
		f.stack[t] = append(s, drop)
		return !drop
	}
	if len(s) == 0 {
		return true // a stray end: the monitors ignore it
	}
	drop := s[len(s)-1]
	f.stack[t] = s[:len(s)-1]
	return !drop
}
