package report

import (
	"strconv"
	"unicode/utf8"

	"github.com/conc-dev/conc/model"
)

// A predicted witness can run to tens of millions of events. Spelled out as
// Events (four strings and a formatted position each) it takes over 100
// bytes an event, several gigabytes; so BuildLean keeps the engine's run as
// it is (shared, not copied) with the program's names, and the renderers
// spell each event as they write it, into reused buffers. Only the cycle's
// events get their transaction, the one thing the run does not say.

// leanRun is a witness run kept as the engine gave it.
type leanRun struct {
	p   *model.Program
	run []model.Step
	// txn is the transaction of each cycle event (Event.Txn).
	txn map[int]int
	// widths are the names' widths in runes, measured once (cellWidths).
	widths *nameWidths
}

type nameWidths struct {
	threads, vars, locks, msgs []int
}

func runeCounts(names []string) []int {
	n := make([]int, len(names))
	for i, s := range names {
		n[i] = utf8.RuneCountInString(s)
	}
	return n
}

// cellWidths are the widths in runes of event i's first three text cells,
// from the names' widths: measuring a long run spells nothing.
func (l *leanRun) cellWidths(i int) [3]int {
	if l.widths == nil {
		var threads []string
		for _, t := range l.p.Threads {
			threads = append(threads, t.Name)
		}
		l.widths = &nameWidths{threads: runeCounts(threads), vars: runeCounts(l.p.Vars), locks: runeCounts(l.p.Locks), msgs: runeCounts(l.p.Msgs)}
	}
	s := l.run[i]
	w := [3]int{4 + digits(i), l.widths.threads[s.Thread], len(s.Ev.Op.String())}
	tgt := 0
	switch s.Ev.Op {
	case model.OpRead, model.OpWrite:
		tgt = l.widths.vars[s.Ev.Target]
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		tgt = l.widths.locks[s.Ev.Target]
	case model.OpFork, model.OpJoin:
		tgt = l.widths.threads[s.Ev.Target]
	case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
		tgt = l.widths.msgs[s.Ev.Target]
	}
	if tgt > 0 {
		w[2] += 1 + tgt
	}
	return w
}

// digits is the number of decimal digits of i >= 0.
func digits(i int) int {
	n := 1
	for ; i >= 10; i /= 10 {
		n++
	}
	return n
}

// event spells out event i (Txn is -1 off the cycle: only the DOT renderer
// asks, and only for the cycle's transactions).
func (l *leanRun) event(i int) Event {
	s := l.run[i]
	e := Event{Thread: l.p.Threads[s.Thread].Name, Op: s.Ev.Op.String(), Target: l.p.TargetName(s.Ev), Txn: -1}
	if s.Ev.Pos.IsValid() {
		e.Pos = s.Ev.Pos.String()
	}
	if x, ok := l.txn[i]; ok {
		e.Txn, e.OnCycle = x, true
	}
	return e
}

// appendCells appends event i's text cells (runCells) to c's buffers.
func (l *leanRun) appendCells(c *[4][]byte, i int) {
	s := l.run[i]
	mark := byte(' ')
	if _, ok := l.txn[i]; ok {
		mark = '*'
	}
	c[0] = append(c[0], ' ', ' ', mark, ' ')
	c[0] = strconv.AppendInt(c[0], int64(i), 10)
	c[1] = append(c[1], l.p.Threads[s.Thread].Name...)
	c[2] = append(c[2], s.Ev.Op.String()...)
	if tgt := l.p.TargetName(s.Ev); tgt != "" {
		c[2] = append(append(c[2], ' '), tgt...)
	}
	c[3] = appendTextPos(c[3], s.Ev.Pos)
}

// appendPos appends Pos.String() for a valid position, nothing otherwise
// (Event.Pos is empty then).
func appendPos(b []byte, p model.Pos) []byte {
	if !p.IsValid() {
		return b
	}
	return appendPosTail(append(b, p.File...), p.Line, p.Col)
}

// Len is the number of events of the witness run.
func (w *Witness) Len() int {
	if w.lean != nil {
		return len(w.lean.run)
	}
	return len(w.Run)
}

// Event is event i of the witness run, spelled out.
func (w *Witness) Event(i int) Event {
	if w.lean != nil {
		return w.lean.event(i)
	}
	return w.Run[i]
}

// txnOf is the transaction of event i, which is on the cycle.
func (w *Witness) txnOf(i int) int {
	if w.lean != nil {
		return w.lean.txn[i]
	}
	return w.Run[i].Txn
}

// appendCells appends event i's text cells to c's buffers.
func (w *Witness) appendCells(c *[4][]byte, i int) {
	if w.lean != nil {
		w.lean.appendCells(c, i)
		return
	}
	for k, s := range runCells(i, w.Run[i]) {
		c[k] = append(c[k], s...)
	}
}
