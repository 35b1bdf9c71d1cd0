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
	// overflow: some thread learned of it unrecorded (Options.MaxKnown),
	// so its slot is cleared in every thread when it ends, and its path
	// may be cut.
	overflow bool
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

// explain is x's explanation when ev, its own, comes right after from, an
// event of another thread that knows of x: the edges by which from's
// thread learned of x, back to x's own event, then from → ev. Each hop
// goes to an earlier thread's first knowledge of x, strictly earlier in
// the trace, so no thread comes twice and the walk ends at x's thread.
// A walk longer than maxPath hops keeps its two ends (Broken.Elided).
func (x *txn) explain(ev, from *trace.Event, maxPath int) *Broken {
	by := make(map[int32]int, len(x.known)) // thread -> its entry
	for i, l := range x.known {
		by[l.thread] = i
	}
	near := []Hop{{From: *from, To: *ev}} // the hops nearest ev, backwards
	var far []Hop                         // a ring of the last ones found
	b := &Broken{Thread: x.thread, Begin: x.begin.Line, End: -1, BeginLoc: x.begin.Loc}
	half := max(1, maxPath/2)
	for u, n := from.Thread, 0; u != x.thread; n++ {
		i, ok := by[u]
		if !ok || n > len(x.known) {
			b.Cut = true // not recorded (overflow)
			break
		}
		l := x.known[i]
		h := Hop{From: l.from, To: l.at}
		switch {
		case len(near) < half:
			near = append(near, h)
		case len(far) < half:
			far = append(far, h)
		default:
			far[b.Elided%half] = h
			b.Elided++
		}
		u = l.from.Thread
	}
	if b.Elided > 0 { // the ring's oldest first
		k := b.Elided % half
		far = append(far[k:], far[:k]...)
	}
	path := append(near, far...)
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	b.Path, b.ElidedAt = path, len(far)
	return b
}
