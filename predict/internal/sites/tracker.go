package sites

import (
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// Access is an access of an open transaction: its edge, line and site.
type Access struct {
	Edge, Line int64
	Site       Site
}

// Tracker follows, per thread, the first access of each letter in the
// open transaction with its edge (numbered as the two-thread finders'
// walks and the chain scan number them), so that a pattern's e1, known by
// its edge, has a line and a site. A pattern's e1 is always such a first
// access: the lock-aware two-thread finder's is the first access or first
// write of its variable in the transaction, and the scan's is the letter
// whose F lowered the minimum, which a later access of the same letter
// (the same F) never lowers again. Memory: a stamp per thread and letter,
// and the letters of the transactions open at once (not their accesses:
// RoadRunner's main thread can keep one open for the whole trace).
type Tracker struct {
	edges []int64
	open  []bool
	txn   [][]Access
	num   []int32   // per thread: transactions begun
	seen  [][]int32 // per thread and letter: the last transaction it was noted in
}

// NewTracker is a tracker of k threads.
func NewTracker(k int) *Tracker {
	return &Tracker{edges: make([]int64, k), open: make([]bool, k), txn: make([][]Access, k),
		num: make([]int32, k), seen: make([][]int32, k)}
}

// Step takes one event.
func (tr *Tracker) Step(ev *trace.Event) {
	t := ev.Thread
	switch {
	case ev.Op == model.OpBegin:
		tr.open[t] = true
		tr.txn[t] = tr.txn[t][:0]
		tr.num[t]++
	case ev.Op == model.OpEnd:
		tr.open[t] = false
	case ev.Op.IsAccess() && tr.open[t]:
		l := proj.LetterOf(ev)
		if int(l) >= len(tr.seen[t]) {
			tr.seen[t] = append(tr.seen[t], make([]int32, max(int(l)+1, 2*len(tr.seen[t]))-len(tr.seen[t]))...)
		}
		if tr.seen[t][l] != tr.num[t] {
			tr.seen[t][l] = tr.num[t]
			tr.txn[t] = append(tr.txn[t], Access{Edge: tr.edges[t], Line: ev.Line, Site: Of(ev)})
		}
	}
	tr.edges[t] += proj.EdgesOf(ev, tr.open[t])
}

// Lookup is thread t's access at edge in its open transaction.
func (tr *Tracker) Lookup(t int, edge int64) (Access, bool) {
	list := tr.txn[t]
	k, ok := slices.BinarySearchFunc(list, edge, func(x Access, e int64) int {
		switch {
		case x.Edge < e:
			return -1
		case x.Edge > e:
			return 1
		}
		return 0
	})
	if !ok {
		return Access{}, false
	}
	return list[k], true
}
