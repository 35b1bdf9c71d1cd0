package trace

import "github.com/conc-dev/conc/model"

// BlockFilter drops the begin and end of the blocks its function names
// (conc monitor's --not-atomic), so that their events count as unary,
// or as parts of the blocks nested inside them, as RAPID's
// ExcludeMethods does for excluded methods. It keeps, per thread, which
// of the open begins it dropped.
type BlockFilter struct {
	is    func(begin *Event) bool
	stack [][]bool // per thread: per open begin, whether it was dropped
}

// NewBlockFilter drops the blocks whose begin is names. It is called
// where the reader runs, so it may read the reader's tables.
func NewBlockFilter(is func(begin *Event) bool) *BlockFilter {
	return &BlockFilter{is: is}
}

// Filter compacts evs in place without the dropped begins and ends; a
// nil filter keeps them all.
func (f *BlockFilter) Filter(evs []Event) []Event {
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
func (f *BlockFilter) keep(ev *Event) bool {
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
