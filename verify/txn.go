package verify

import (
	"slices"

	"github.com/conc-dev/conc/model"
)

// The transactions of docs/spec.md §1, recomputed from the run alone for
// the cycle's events: a begin opens one and its thread's events up to the
// matching end belong to it, nested pairs flattening to the outermost; an
// access outside any transaction is a unary transaction of its own; any
// other event (an end with none open, a sync event outside a transaction)
// is in none. With lock edges such a sync event is a unary transaction too,
// but the scan rejects it bare before it gets here (unarySync): a witness
// writes it begin, event, end, which the first rule covers. The scan
// keeps each thread's nesting, which costs a few instructions an event (the
// run can have millions), and notes the transactions of the wanted events
// only.

// txnID names a transaction: thread t's nth outermost one, or the unary
// transaction of run event unary-1.
type txnID struct {
	t, nth int32
	unary  int
}

// noTxn is the transaction of an event in none.
var noTxn = txnID{t: -1}

// txns follows the threads' transactions along the run.
type txns struct {
	depth []int32 // per thread: its begin nesting
	begun []int32 // per thread: its outermost begins so far
	at    []int   // the wanted events, in order
	next  int     // the next wanted event, -1 past the last
	txn   map[int]txnID
}

// newTxns wants the transactions of the cycle's events that lie in the run
// (cycle reports the others).
func newTxns(c *checker) *txns {
	n := len(c.p.Threads)
	x := &txns{depth: make([]int32, n), begun: make([]int32, n), txn: map[int]txnID{}}
	for _, pr := range c.w.Cycle {
		for _, i := range []int{pr.From, pr.To} {
			if i >= 0 && i < len(c.w.Run) {
				x.at = append(x.at, i)
			}
		}
	}
	slices.Sort(x.at)
	x.at = slices.Compact(x.at)
	x.advance()
	return x
}

func (x *txns) advance() {
	x.next = -1
	if len(x.at) > 0 {
		x.next, x.at = x.at[0], x.at[1:]
	}
}

// step moves past run event i, s (its thread checked).
func (x *txns) step(i int, s *model.Step) {
	if s.Ev.Op == model.OpBegin {
		x.nest(s.Thread, model.OpBegin)
	}
	if i == x.next {
		x.note(i, s)
	}
	if s.Ev.Op == model.OpEnd {
		x.nest(s.Thread, model.OpEnd)
	}
}

// nest moves thread t's nesting past a begin or an end (op).
func (x *txns) nest(t int32, op model.Op) {
	switch {
	case op == model.OpBegin:
		if x.depth[t]++; x.depth[t] == 1 {
			x.begun[t]++
		}
	case x.depth[t] > 0:
		x.depth[t]--
	}
}

// note records the transaction of wanted event i, s.
func (x *txns) note(i int, s *model.Step) {
	t, op := s.Thread, s.Ev.Op
	switch {
	case x.depth[t] > 0:
		x.txn[i] = txnID{t: t, nth: x.begun[t]}
	case op.IsAccess():
		x.txn[i] = txnID{t: t, unary: i + 1}
	default:
		x.txn[i] = noTxn
	}
	x.advance()
}
