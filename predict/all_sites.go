package predict

import (
	"io"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// The signature of a predicted violation, for conc predict --all
// (docs/predict.md, "Every group (--all)"): the code locations (STD's LOC)
// and ops of the interrupted transaction's two accesses, e1 where the cycle
// leaves it and e2 where it comes back, as the start of conc monitor's
// signature (report/trace_groups.go). An event without a location is named
// by its op and target instead, as the monitor does.

// site is one event's part of a signature.
type site struct {
	op     model.Op
	loc    int32 // -1: none, and target names the event
	target int32
}

// siteOf is ev's site.
func siteOf(ev *trace.Event) site { return site{op: ev.Op, loc: ev.Loc, target: ev.Target} }

// letterSite is the site of an access to letter l at code location loc.
func letterSite(l profiles.Letter, loc int32) site {
	op := model.OpRead
	if l.Write() {
		op = model.OpWrite
	}
	return site{op: op, loc: loc, target: int32(l >> 1)}
}

// key is what two sites are compared by: the location, or without one
// the target.
func (x site) key() site {
	if x.loc >= 0 {
		x.target = -1
	}
	return x
}

// groupKey is a group's signature as data.
type groupKey [2]site

// txnSite is an access of an open transaction: its edge, line and site.
type txnSite struct {
	edge, line int64
	s          site
}

// siteTracker follows, per thread, the first access of each letter in the
// open transaction with its edge (numbered as hbWalk and the scan number
// them), so that a pattern's e1, known by its edge, has a line and a site.
// A pattern's e1 is always such a first access: pair_lock.go's is the
// first access or first write of its variable in the transaction, and the
// scan's is the letter whose F lowered the minimum, which a later access
// of the same letter (the same F) never lowers again. Memory: a stamp per
// thread and letter, and the letters of the transactions open at once
// (not their accesses: RoadRunner's main thread can keep one open for the
// whole trace).
type siteTracker struct {
	edges []int64
	open  []bool
	txn   [][]txnSite
	num   []int32   // per thread: transactions begun
	seen  [][]int32 // per thread and letter: the last transaction it was noted in
}

func newSiteTracker(k int) *siteTracker {
	return &siteTracker{edges: make([]int64, k), open: make([]bool, k), txn: make([][]txnSite, k),
		num: make([]int32, k), seen: make([][]int32, k)}
}

// step takes one event.
func (tr *siteTracker) step(ev *trace.Event) {
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
			tr.txn[t] = append(tr.txn[t], txnSite{edge: tr.edges[t], line: ev.Line, s: siteOf(ev)})
		}
	}
	tr.edges[t] += proj.EdgesOf(ev, tr.open[t])
}

// lookup is thread t's access at edge in its open transaction.
func (tr *siteTracker) lookup(t int, edge int64) (txnSite, bool) {
	list := tr.txn[t]
	k, ok := slices.BinarySearchFunc(list, edge, func(x txnSite, e int64) int {
		switch {
		case x.edge < e:
			return -1
		case x.edge > e:
			return 1
		}
		return 0
	})
	if !ok {
		return txnSite{}, false
	}
	return list[k], true
}

// sitesAt reads the sites of the events at the given trace lines from the
// spool (for a witness that came with no pattern: predict's own answer).
func sitesAt(sp *proj.Spool, lines ...int64) (map[int64]site, error) {
	want := map[int64]bool{}
	for _, l := range lines {
		want[l] = true
	}
	out := map[int64]site{}
	r := sp.Reader()
	var ev trace.Event
	for len(out) < len(want) {
		if err := r.Next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if want[ev.Line] {
			out[ev.Line] = siteOf(&ev)
		}
	}
	return out, nil
}

// siteText spells a site as the monitor's signature does: "w@Foo.java:12",
// or without a location "w x" (its target).
func siteText(s *proj.Summary, x site, locs []string) string {
	op := trace.OpName[x.op]
	if x.loc >= 0 && int(x.loc) < len(locs) {
		return op + "@" + locs[x.loc]
	}
	var names []string
	switch {
	case x.op.IsAccess():
		names = s.Vars
	case x.op == model.OpAcquire || x.op == model.OpRelease:
		names = s.Locks
	case x.op == model.OpFork || x.op == model.OpJoin:
		names = s.ThreadNames
	}
	if x.target >= 0 && int(x.target) < len(names) {
		return op + " " + names[x.target]
	}
	return op
}
