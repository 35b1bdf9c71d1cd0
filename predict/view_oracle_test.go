package predict

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// The reference for conc predict --criterion view, the definition applied
// literally. A run is an interleaving of prefixes of the threads'
// projections (the trace's events after the reader's normalisation) in
// which a lock is held by one thread at a time, a forked thread moves only
// after its fork and a join only after the joined thread's last event. A
// run breaks a pair of transactions t and u of different threads when
// both are whole in it (every event of theirs is) and their accesses, in
// the run's order and alone (σ), are view-equivalent to neither t·u nor
// u·t: some read reads from another write (or the initial value), or some
// variable's last write is another. The trace violates iff some run
// breaks some pair. The search is per pair, over the runs' states
// (positions) with σ so far, so that no two interleavings that reach the
// same positions with the same σ are explored twice.

// vEvent is an event of a thread, with its transaction (-1: none).
type vEvent struct {
	op     model.Op
	target int32
	line   int64
	txn    int
}

// vTxn is a transaction: its thread and its events' indices.
type vTxn struct {
	thread      int
	first, last int
}

// viewOracle is a trace as the reference reads it.
type viewOracle struct {
	threads [][]vEvent
	txns    []vTxn
	forker  map[int]int // forked thread: its forker
	forkAt  map[int]int // forked thread: the fork's index in its forker
	seen    map[string]bool
	states  int
}

// newViewOracle reads src (with docs/spec.md §3's read locks).
func newViewOracle(t testing.TB, src string) *viewOracle {
	evs := readOrdered(t, src)
	o := &viewOracle{forker: map[int]int{}, forkAt: map[int]int{}}
	open := map[int]int{} // thread: its open transaction
	for _, e := range evs {
		th := int(e.Thread)
		for len(o.threads) <= th {
			o.threads = append(o.threads, nil)
		}
		v := vEvent{op: e.Op, target: e.Target, line: e.Line, txn: -1}
		i := len(o.threads[th])
		cur, inTxn := open[th]
		switch {
		case e.Op == model.OpBegin:
			o.txns = append(o.txns, vTxn{thread: th, first: i, last: i})
			open[th] = len(o.txns) - 1
			v.txn = open[th]
		case inTxn:
			v.txn = cur
			o.txns[cur].last = i
			if e.Op == model.OpEnd {
				delete(open, th)
			}
		case e.Op.IsAccess():
			o.txns = append(o.txns, vTxn{thread: th, first: i, last: i})
			v.txn = len(o.txns) - 1
		}
		if e.Op == model.OpFork {
			o.forker[int(e.Target)], o.forkAt[int(e.Target)] = th, i
		}
		o.threads[th] = append(o.threads[th], v)
	}
	for len(o.threads) < 64 && o.maxThread() >= len(o.threads) {
		o.threads = append(o.threads, nil)
	}
	return o
}

// readOrdered is src's events, the ordering extension read.
func readOrdered(t testing.TB, src string) []trace.Event {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	var evs []trace.Event
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return evs
		}
		require.NoError(t, err, src)
		evs = append(evs, e)
	}
}

// maxThread is the largest thread a fork or join names.
func (o *viewOracle) maxThread() int {
	m := -1
	for _, evs := range o.threads {
		for _, e := range evs {
			if e.op == model.OpFork || e.op == model.OpJoin {
				m = max(m, int(e.target))
			}
		}
	}
	return m
}

// violation is a pair some run breaks, or ok false.
func (o *viewOracle) violation() (pair [2]int, ok bool) {
	for a := range o.txns {
		for b := a + 1; b < len(o.txns); b++ {
			if o.txns[a].thread == o.txns[b].thread || !o.writes(a, b) {
				continue
			}
			o.seen = map[string]bool{}
			if o.breaks(a, b, make([]int, len(o.threads)), nil) {
				return [2]int{a, b}, true
			}
		}
	}
	return [2]int{}, false
}

// writes reports that one of the two transactions writes a variable both
// access (else every interleaving is serializable: no pattern).
func (o *viewOracle) writes(a, b int) bool {
	acc := func(x int) map[int32]bool {
		m := map[int32]bool{}
		tx := o.txns[x]
		for _, e := range o.threads[tx.thread][tx.first : tx.last+1] {
			if e.op.IsAccess() {
				m[e.target] = m[e.target] || e.op == model.OpWrite
			}
		}
		return m
	}
	ma, mb := acc(a), acc(b)
	for v, w := range ma {
		if wb, ok := mb[v]; ok && (w || wb) {
			return true
		}
	}
	return false
}

// breaks searches the runs from positions pos, σ so far (one byte per
// access: side, write, variable), for one that breaks the pair a, b.
func (o *viewOracle) breaks(a, b int, pos []int, sigma []byte) bool {
	key := fmt.Sprint(pos) + string(sigma)
	if o.seen[key] {
		return false
	}
	o.seen[key] = true
	o.states++
	ta, tb := o.txns[a], o.txns[b]
	if pos[ta.thread] > ta.last && pos[tb.thread] > tb.last {
		return !serialSigma(sigma)
	}
	for t := range o.threads {
		if !o.enabled(pos, t) {
			continue
		}
		e := o.threads[t][pos[t]]
		next := slices.Clone(pos)
		next[t]++
		s := sigma
		if e.op.IsAccess() && (e.txn == a || e.txn == b) {
			side := byte(0)
			if e.txn == b {
				side = 1
			}
			w := byte(0)
			if e.op == model.OpWrite {
				w = 1
			}
			s = append(slices.Clone(sigma), side<<7|w<<6|byte(e.target))
		}
		if o.breaks(a, b, next, s) {
			return true
		}
	}
	return false
}

// enabled reports whether thread t may take its next event at pos.
func (o *viewOracle) enabled(pos []int, t int) bool {
	if pos[t] >= len(o.threads[t]) {
		return false
	}
	if f, ok := o.forker[t]; ok && pos[f] <= o.forkAt[t] {
		return false
	}
	e := o.threads[t][pos[t]]
	switch e.op {
	case model.OpAcquire, model.OpReadAcquire:
		for u := range o.threads {
			w, r := o.holds(u, pos[u], e.target)
			if u != t && (w || r && e.op == model.OpAcquire) {
				return false
			}
		}
	case model.OpJoin:
		u := int(e.target)
		return u >= len(o.threads) || pos[u] == len(o.threads[u])
	}
	return true
}

// holds reports that thread u holds lock l after its first n events, for
// writing, for reading.
func (o *viewOracle) holds(u, n int, l int32) (w, r bool) {
	for _, e := range o.threads[u][:n] {
		if e.target != l {
			continue
		}
		switch e.op {
		case model.OpAcquire, model.OpRelease:
			w = e.op == model.OpAcquire
		case model.OpReadAcquire, model.OpReadRelease:
			r = e.op == model.OpReadAcquire
		}
	}
	return w, r
}

// serialSigma reports σ view-equivalent to the pair's side-0 accesses
// then side 1's, or side 1's then side 0's.
func serialSigma(sigma []byte) bool {
	var s0, s1 []byte
	for _, x := range sigma {
		if x>>7 == 0 {
			s0 = append(s0, x)
		} else {
			s1 = append(s1, x)
		}
	}
	v := viewString(sigma)
	return v == viewString(append(slices.Clone(s0), s1...)) || v == viewString(append(slices.Clone(s1), s0...))
}

// viewString is, for a sequence of σ's accesses, per read (side and
// number on its side) the write it reads from, and per variable its last
// write.
func viewString(seq []byte) string {
	n := [2]int{}
	last := map[byte]string{}
	var reads []string
	for _, x := range seq {
		side := x >> 7
		id := strconv.Itoa(int(side)) + "." + strconv.Itoa(n[side])
		n[side]++
		v := x & 63
		if x>>6&1 == 1 {
			last[v] = id
			continue
		}
		from, ok := last[v]
		if !ok {
			from = "init"
		}
		reads = append(reads, id+"<"+from)
	}
	slices.Sort(reads)
	var finals []string
	for v, w := range last {
		finals = append(finals, strconv.Itoa(int(v))+"="+w)
	}
	slices.Sort(finals)
	return strings.Join(reads, " ") + " | " + strings.Join(finals, " ")
}
