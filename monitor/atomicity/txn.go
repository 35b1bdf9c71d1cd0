package atomicity

import "github.com/conc-dev/conc/trace"

// txn is an open transaction (not a unary one): its thread, its slot,
// its begin event, its explanation once broken, and per other thread the
// edge by which that thread first learned of it.
type txn struct {
	thread int32
	slot   int32
	begin  trace.Event
	broken *Broken
	known  []learned
}

// learned is how thread first learned of a transaction: the event at, of
// thread, came right after from, which knew of it already (or is the
// transaction's own).
type learned struct {
	thread   int32
	at, from trace.Event
}

// learn notes that thread u learned of x at ev through from.
func (x *txn) learn(u int32, ev, from *trace.Event) {
	x.known = append(x.known, learned{u, *ev, *from})
}

// lookup is how thread u learned of x.
func (x *txn) lookup(u int32) (learned, bool) {
	for _, l := range x.known {
		if l.thread == u {
			return l, true
		}
	}
	return learned{}, false
}

// explain is x's explanation when ev, its own, comes right after from, an
// event of another thread that knows of x: the edges by which from's
// thread learned of x, back to x's own event, then from → ev. Each hop
// goes to an earlier thread's first knowledge of x, strictly earlier in
// the trace, so no thread comes twice and the walk ends at x's thread.
func (x *txn) explain(ev, from *trace.Event) *Broken {
	path := []Hop{{From: *from, To: *ev}}
	for u := from.Thread; u != x.thread; {
		l, ok := x.lookup(u)
		if !ok || len(path) > len(x.known)+1 {
			break // cannot happen: a thread that knows of x learned of it
		}
		path = append(path, Hop{From: l.from, To: l.at})
		u = l.from.Thread
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return &Broken{Thread: x.thread, Begin: x.begin.Line, End: -1, BeginLoc: x.begin.Loc, Path: path}
}
