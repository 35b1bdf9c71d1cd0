package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWrapUnarySync: with lock edges every lock, fork and join event outside
// a transaction gets its begin and end, at its position; events inside one
// are left alone; the cycle follows its events; UnwrapUnarySync undoes it,
// telling the wrappers from the program's own begin and end by the paths.
func TestWrapUnarySync(t *testing.T) {
	at := func(line int64) Pos { return Pos{File: "w.conc", Line: line, Col: 1} }
	ev := func(op Op, target, line int32) Event { return Event{Op: op, Target: target, Pos: at(int64(line))} }
	// A: acquire m; release m; atomic { acquire m; read x; release m }
	a := chain(ev(OpAcquire, 0, 1), ev(OpRelease, 0, 2), ev(OpBegin, -1, 3), ev(OpAcquire, 0, 4),
		ev(OpRead, 0, 5), ev(OpRelease, 0, 6), ev(OpEnd, -1, 7))
	// B: fork A... (a join of nobody in particular: only the shape matters)
	b := chain(ev(OpBegin, -1, 10), ev(OpWrite, 0, 11), ev(OpEnd, -1, 12), ev(OpJoin, 0, 13))
	p := &Program{Threads: []*Thread{{Name: "A", Auto: a}, {Name: "B", Auto: b}}, Vars: []string{"x"}, Locks: []string{"m"}}
	raw := func(lockEdges bool) *Witness {
		w := &Witness{LockEdges: lockEdges, Paths: [][]Move{{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}, {{0, 0}, {1, 0}, {2, 0}, {3, 0}}}}
		for _, s := range [][2]int32{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}, {0, 4}, {1, 3}} {
			w.Run = append(w.Run, Step{Thread: s[0], Ev: p.Threads[s[0]].Auto.Out[s[1]][0].Ev})
		}
		w.Cycle = []Conflict{{From: 6, To: 8}, {From: 0, To: 7}} // not a real cycle: indices only
		return w
	}
	require.Equal(t, raw(false), WrapUnarySync(raw(false)), "no lock edges: no unary sync transactions")

	w := WrapUnarySync(raw(true))
	var got []string
	for _, s := range w.Run {
		got = append(got, p.Threads[s.Thread].Name+" "+s.Ev.Op.String()+" "+s.Ev.Pos.String())
	}
	require.Equal(t, []string{
		"A begin w.conc:1:1", "A acquire w.conc:1:1", "A end w.conc:1:1",
		"A begin w.conc:2:1", "A release w.conc:2:1", "A end w.conc:2:1",
		"A begin w.conc:3:1", "A acquire w.conc:4:1",
		"B begin w.conc:10:1", "B write w.conc:11:1", "B end w.conc:12:1",
		"A read w.conc:5:1",
		"B begin w.conc:13:1", "B join w.conc:13:1", "B end w.conc:13:1",
	}, got)
	require.Equal(t, []Conflict{{From: 10, To: 13}, {From: 1, To: 11}}, w.Cycle)
	require.Equal(t, w, WrapUnarySync(w), "wrapping twice is wrapping once")

	back, err := UnwrapUnarySync(p, w)
	require.NoError(t, err)
	require.Equal(t, raw(true), back)
	same, err := UnwrapUnarySync(p, raw(true))
	require.NoError(t, err)
	require.Equal(t, raw(true), same, "a run without wrappers comes back as it is")

	bad := WrapUnarySync(raw(true))
	bad.Run = bad.Run[:len(bad.Run)-1] // B's join without its end
	_, err = UnwrapUnarySync(p, bad)
	require.EqualError(t, err, "thread B: move 3: the unary transaction of its join has no end")
}
