package predict

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// guarded: the lock keeps T2 out of T1's transaction; dropping the lock
// lets it in, so the lock-free check finds a run that the engine must refute.
const guarded = `T1|acq(m)
T1|begin
T1|r(x)
T1|w(x)
T1|end
T1|rel(m)
T2|acq(m)
T2|w(x)
T2|rel(m)
`

// TestTableGuard: a reduced projection whose tables would exceed MaxTable
// is unknown, with the sizes in the reason, instead of a search that cannot
// fit; within the limit the engine decides.
func TestTableGuard(t *testing.T) {
	out := predictString(t, guarded, Options{Engine: "global", MaxTable: 1})
	require.Equal(t, engines.Unknown, out.Result.Verdict)
	require.Contains(t, out.Result.Reason, "too large for the global engine")
	out = predictString(t, guarded, Options{Engine: "global"})
	require.Equal(t, engines.Serializable, out.Result.Verdict)
	require.Len(t, out.Program.Threads, 2)
}

// TestReducedDrops: private variables, private locks and transactions left
// empty are not in the reduced projection; the shared ones are.
func TestReducedDrops(t *testing.T) {
	src := `T1|begin
T1|acq(p)
T1|r(mine)
T1|rel(p)
T1|end
T1|acq(m)
T1|w(x)
T1|rel(m)
T2|acq(m)
T2|r(x)
T2|rel(m)
T2|w(mine2)
`
	p := newTestPredictor(t, src, Options{})
	rd, err := p.s.reduce(p.sp, p.u, false, false, false)
	require.NoError(t, err)
	require.Equal(t, []string{"x"}, rd.p.Vars)
	require.Equal(t, []string{"m"}, rd.p.Locks)
	// T1: acq m; begin; w x; end; rel m (its first transaction is gone).
	require.Equal(t, 5, rd.p.Threads[0].Auto.NumEdges())
	require.Equal(t, []int64{5, 6, 7, 8, 9}, rd.orig[0])
	require.Equal(t, 5, rd.p.Threads[1].Auto.NumEdges()) // acq m; begin; r x; end; rel m
	require.Equal(t, []int64{10, 8}, rd.full)
	size, err := p.s.reduce(p.sp, p.u, false, false, true)
	require.NoError(t, err)
	require.Equal(t, int64(5+1+5+1), size.edges)
	require.Equal(t, [2]int{1, 1}, [2]int{size.vars, size.locks})
}
