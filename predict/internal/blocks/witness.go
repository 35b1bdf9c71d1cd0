package blocks

import (
	"fmt"
	"maps"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/report"
)

// PairView is the pair criterion applied to a witness run, independently
// of how the run was found: the accesses of thread x's edges [sx, ex) and
// of y's [sy, ey), in run order (σ), are view-equivalent to neither serial
// order of the two (violates). clean reports that no other event of the
// run writes a variable σ accesses; then the run as a whole is not
// view-serializable either, since in any serial order the pair's reads
// and final writes see only each other's writes (docs/predict.md).
func PairView(run []model.Step, x int, sx, ex int64, y int, sy, ey int64) (violates, clean bool) {
	pos := map[int32]int64{}
	var sigma []pairAccess
	vars := map[int32]bool{}
	var others []int32 // variables written outside σ
	for _, st := range run {
		q := pos[st.Thread]
		pos[st.Thread]++
		if !st.Ev.Op.IsAccess() {
			continue
		}
		in := int(st.Thread) == x && q >= sx && q < ex || int(st.Thread) == y && q >= sy && q < ey
		switch {
		case in:
			sigma = append(sigma, pairAccess{side: b2i(int(st.Thread) == y), ev: st.Ev})
			vars[st.Ev.Target] = true
		case st.Ev.Op == model.OpWrite:
			others = append(others, st.Ev.Target)
		}
	}
	clean = true
	for _, v := range others {
		clean = clean && !vars[v]
	}
	return !serialPair(sigma), clean
}

// pairAccess is an access of σ: side 0 is x's transaction, 1 is y's.
type pairAccess struct {
	side int
	ev   model.Event
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// serialPair reports σ view-equivalent to one of its serial orders.
func serialPair(sigma []pairAccess) bool {
	var t, u []pairAccess
	for _, a := range sigma {
		if a.side == 0 {
			t = append(t, a)
		} else {
			u = append(u, a)
		}
	}
	v := viewOf(sigma)
	return v.equal(viewOf(append(append([]pairAccess(nil), t...), u...))) ||
		v.equal(viewOf(append(append([]pairAccess(nil), u...), t...)))
}

// pairView is what a sequence of σ's accesses reads and writes last: per
// side, for each of its accesses in order, the write a read reads from
// (numbered per side; side -1 the initial value), and per variable its
// last write.
type pairView struct {
	from [2][]ref
	last map[int32]ref
}

type ref struct{ side, i int }

func viewOf(seq []pairAccess) pairView {
	v := pairView{last: map[int32]ref{}}
	for _, a := range seq {
		r := ref{a.side, len(v.from[a.side])}
		w, ok := v.last[a.ev.Target]
		if !ok {
			w = ref{-1, -1}
		}
		if a.ev.Op == model.OpWrite {
			v.last[a.ev.Target] = r
			w = ref{-2, -2} // a write reads nothing
		}
		v.from[a.side] = append(v.from[a.side], w)
	}
	return v
}

func (v pairView) equal(o pairView) bool {
	return slices.Equal(v.from[0], o.from[0]) && slices.Equal(v.from[1], o.from[1]) && maps.Equal(v.last, o.last)
}

// Why words a found pattern for the answer's reason; lines are the trace
// lines of X's a0, Y's a1, Y's b1 and X's b0.
func (ix *Index) Why(s *proj.Summary, f Found, lines [4]int64) string {
	in := f.In
	tx, ty := ix.Threads[in.X], ix.Threads[in.Y]
	t, u := &tx.Txns[f.TX], &ty.Txns[f.TY]
	c, d := tx.Contents[in.CX], ty.Contents[in.CY]
	X, Y := prose(s.ThreadNames, in.X), prose(s.ThreadNames, in.Y)
	v := func(a *Access) string { return s.Vars[a.Var] }
	var what string
	switch a0, a1, b0, b1 := &c.Acc[in.A0], &d.Acc[in.A1], &c.Acc[in.B0], &d.Acc[in.B1]; in.Kind {
	case ReadBetweenWrites:
		what = fmt.Sprintf("%s's read of %s at line %d reads %s's write at line %d, which %s writes again at line %d: "+
			"in neither serial order does it read that write", Y, v(a1), lines[1], X, lines[0], X, lines[3])
	case WriteBetweenReads:
		what = fmt.Sprintf("%s's write of %s at line %d falls between %s's reads of it at lines %d and %d, "+
			"which in either serial order read the same value", Y, v(a1), lines[1], X, lines[0], lines[3])
	case WriteBeforeRead:
		what = fmt.Sprintf("%s's write of %s at line %d falls between %s's write of it at line %d and its read at line %d, "+
			"which in either serial order reads %s's own write", Y, v(a1), lines[1], X, lines[0], lines[3], X)
	case FinalWriteBetween:
		what = fmt.Sprintf("%s's last write of %s at line %d falls between %s's read of it at line %d and its write at line %d: "+
			"the read puts %s first, the last writes put %s first", Y, v(a1), lines[1], X, lines[0], lines[3], X, Y)
	default:
		what = fmt.Sprintf("%s's %s of %s at line %d comes before %s's %s of it at line %d, which puts %s first, "+
			"and %s's %s of %s at line %d before %s's %s of it at line %d, which puts %s first",
			X, role(a0), v(a0), lines[0], Y, role(a1), lines[1], X, Y, role(b1), v(b1), lines[2], X, role(b0), lines[3], Y)
	}
	return fmt.Sprintf("%s and %s are not view-serializable as a pair in this run (%s): %s", txnName(X, t), txnName(Y, u), Note, what)
}

// Note names the test in a violation's reason.
const Note = "Wang and Stoller's block test"

// role is an access of a 2v-block as the paper names it.
func role(a *Access) string {
	if a.Write {
		return "final write"
	}
	return "initial read"
}

// txnName names a transaction with its thread, number and lines.
func txnName(thread string, t *Txn) string {
	end := "open"
	if t.EndLine > 0 {
		end = fmt.Sprint(t.EndLine)
	}
	if t.Begin == t.EndLine {
		return fmt.Sprintf("%s#%d (line %d)", thread, t.Num, t.Begin)
	}
	return fmt.Sprintf("%s#%d (lines %d-%s)", thread, t.Num, t.Begin, end)
}

// prose names thread t as the report's sentences do (report.Naming).
func prose(names []string, t int32) string {
	return report.NamingOf(names).Thread(names[t])
}
