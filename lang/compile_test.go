package lang

import (
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

func pos(line, col int32) model.Pos { return model.Pos{File: "t.conc", Line: int64(line), Col: col} }

func TestUnaryTransactions(t *testing.T) {
	p := mustCompile(t, "thread T { read x, y\n write x }")
	a := p.Threads[0].Auto
	require.Equal(t, []string{
		"0 -begin-> 1", "1 -read x-> 2", "2 -end-> 3",
		"3 -begin-> 4", "4 -read y-> 5", "5 -end-> 6",
		"6 -begin-> 7", "7 -write x-> 8", "8 -end-> 9",
	}, shape(p, a))
	// Each event of a unary transaction sits at its name.
	for q := 0; q < 3; q++ {
		require.Equal(t, pos(1, 17), a.Out[q][0].Ev.Pos)
		require.Equal(t, pos(1, 20), a.Out[q+3][0].Ev.Pos)
		require.Equal(t, pos(2, 8), a.Out[q+6][0].Ev.Pos)
	}
	require.Equal(t, []bool{false, true, true, false, true, true, false, true, true, false}, a.InTxn)
	require.Equal(t, []string{"x", "y"}, p.Vars)
	require.Empty(t, p.Locks)
	require.Equal(t, model.StraightLine, model.ClassOf(a))
}

func TestNestedAtomicFlattened(t *testing.T) {
	p := mustCompile(t, "thread T {\n atomic { read x; atomic { write y }\n read z\n }\n}")
	a := p.Threads[0].Auto
	require.Equal(t, []string{
		"0 -begin-> 1", "1 -read x-> 2", "2 -write y-> 3", "3 -read z-> 4", "4 -end-> 5",
	}, shape(p, a))
	require.Equal(t, pos(2, 2), a.Out[0][0].Ev.Pos, "begin at atomic")
	require.Equal(t, pos(4, 2), a.Out[4][0].Ev.Pos, "end at the closing brace")
	require.Equal(t, []bool{false, true, true, true, true, false}, a.InTxn)
}

func TestSyncDesugared(t *testing.T) {
	p := mustCompile(t, "vars x; locks l, m\nthread T { sync m { read x; sync l { atomic { write x } } } }")
	a := p.Threads[0].Auto
	require.Equal(t, []string{
		"0 -acquire m-> 1", "1 -begin-> 2", "2 -read x-> 3", "3 -end-> 4",
		"4 -acquire l-> 5", "5 -begin-> 6", "6 -write x-> 7", "7 -end-> 8",
		"8 -release l-> 9", "9 -release m-> 10",
	}, shape(p, a))
	require.Equal(t, []string{"l", "m"}, p.Locks, "declaration order")
	require.Equal(t, [][]int32{nil, {1}, {1}, {1}, {1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {1}, nil}, a.Held)
	require.Equal(t, pos(2, 17), a.Out[0][0].Ev.Pos, "acquire at the lock's name")
	require.Equal(t, pos(2, 57), a.Out[8][0].Ev.Pos, "release at the closing brace")
	require.Equal(t, pos(2, 59), a.Out[9][0].Ev.Pos)
	require.True(t, p.HasSync())
}

func TestThreadArrayShares(t *testing.T) {
	p := mustCompile(t, "thread A { read x }\nthread W[3] { write x }")
	require.Len(t, p.Threads, 4)
	require.Equal(t, "A", p.Threads[0].Name)
	for i, name := range []string{"W[0]", "W[1]", "W[2]"} {
		th := p.Threads[i+1]
		require.Equal(t, name, th.Name)
		require.Same(t, p.Threads[1].Auto, th.Auto)
		require.Equal(t, pos(2, 1), th.Pos)
	}
	require.NotSame(t, p.Threads[0].Auto, p.Threads[1].Auto)
	require.Equal(t, pos(1, 1), p.Threads[0].Pos)
	require.Equal(t, "t.conc", p.File)
}

func TestNamesInOrderOfFirstUse(t *testing.T) {
	p := mustCompile(t, "proc p { write b; acquire m }\nthread T { read a, b; call p; release m; sync k { read c } }")
	require.Equal(t, []string{"b", "a", "c"}, p.Vars, "procedures come first in the source")
	require.Equal(t, []string{"m", "k"}, p.Locks)
	p = mustCompile(t, "vars c, b, a\nthread T { read a, b, c }")
	require.Equal(t, []string{"c", "b", "a"}, p.Vars)
}

func TestLoopAndChooseShapes(t *testing.T) {
	p := mustCompile(t, "thread T { loop { atomic { read x } } }")
	require.Equal(t, []string{"0 -begin-> 1", "1 -read x-> 2", "2 -end-> 0"}, shape(p, p.Threads[0].Auto))
	require.Equal(t, model.Regular, model.ClassOf(p.Threads[0].Auto))

	// The choose joins into the first branch's end; no epsilon edge.
	p = mustCompile(t, "thread T { atomic { choose { read x } or { write y } or { read y }; write x } }")
	require.Equal(t, []string{
		"0 -begin-> 1", "1 -read x-> 2", "1 -write y-> 2", "1 -read y-> 2",
		"2 -write x-> 3", "3 -end-> 4",
	}, shape(p, p.Threads[0].Auto))

	// An empty branch joins by epsilon: its end (the choose's start) branches.
	p = mustCompile(t, "thread T { atomic { choose { read x } or { skip }; write x } }")
	require.Equal(t, []string{
		"0 -begin-> 1", "1 -read x-> 2", "1 -skip-> 2", "2 -write x-> 3", "3 -end-> 4",
	}, shape(p, p.Threads[0].Auto))

	// A second loop needs a head of its own, or the loops would interleave.
	p = mustCompile(t, "thread T { atomic { loop { read x }; loop { write x } } }")
	require.Equal(t, []string{
		"0 -begin-> 1", "1 -read x-> 1", "1 -skip-> 2", "2 -write x-> 2", "2 -end-> 3",
	}, shape(p, p.Threads[0].Auto))

	// A loop whose body ends with a choose with an empty branch: the
	// epsilon self-loop that merging creates is dropped.
	p = mustCompile(t, "thread T { atomic { loop { choose { skip } or { read x } } } }")
	require.Equal(t, []string{"0 -begin-> 1", "1 -read x-> 1", "1 -end-> 2"}, shape(p, p.Threads[0].Auto))
}

func TestRepeatUnrolls(t *testing.T) {
	p := mustCompile(t, "thread T { repeat 3 { atomic { read x } } }")
	a := p.Threads[0].Auto
	require.Equal(t, 10, a.NumStates())
	require.Equal(t, model.StraightLine, model.ClassOf(a))
	p = mustCompile(t, "thread T { repeat 0 { read x } ; repeat 1000000 { skip } }")
	require.Equal(t, 1, p.Threads[0].Auto.NumStates())
}

func TestInlinedProcedures(t *testing.T) {
	p := mustCompile(t, "proc p { read x }\nproc q { call p; atomic { call p } }\nthread T { call q }")
	a := p.Threads[0].Auto
	require.Equal(t, []string{
		"0 -begin-> 1", "1 -read x-> 2", "2 -end-> 3",
		"3 -begin-> 4", "4 -read x-> 5", "5 -end-> 6",
	}, shape(p, a))
	require.False(t, a.Pushdown())
}

func TestRecursionIsPushdown(t *testing.T) {
	p := mustCompile(t, `vars x; locks l
proc r { choose { skip } or { write x; call r; read x } }
thread T { sync l { call r } }`)
	a := p.Threads[0].Auto
	require.Equal(t, model.Recursive, model.ClassOf(a))
	require.Equal(t, []string{
		"0 -acquire l-> 1",
		"1 -skip push r from t.conc:3:21-> 2", // the thread's call
		"2 -begin-> 3",
		"2 -skip-> 9", // choose's empty branch, joined by epsilon
		"3 -write x-> 4", "4 -end-> 5",
		"5 -skip push r from t.conc:2:40-> 2", // the recursive call
		"6 -begin-> 7", "7 -read x-> 8", "8 -end-> 9",
		"9 -skip pop r from t.conc:2:40-> 6",
		"9 -skip pop r from t.conc:3:21-> 10",
		"10 -release l-> 11",
	}, shape(p, a))
	// The copy runs with l held: the call's context.
	for q := 2; q <= 9; q++ {
		require.Equal(t, []int32{0}, a.Held[q], "state %d", q)
	}
	require.Equal(t, []string{"r from t.conc:2:40", "r from t.conc:3:21"}, a.Symbols)
}

func TestRecursionOneCopyPerContext(t *testing.T) {
	p := mustCompile(t, `proc r { choose { skip } or { read x; call r } }
thread T { call r; atomic { call r }; call r }`)
	a := p.Threads[0].Auto
	entries := map[bool]int{}
	for _, es := range a.Out {
		for _, e := range es {
			if e.Stack == model.StackPush {
				entries[a.InTxn[e.To]]++
			}
		}
	}
	// Outside: the thread's two calls and the copy's own; inside: one and one.
	require.Equal(t, map[bool]int{false: 3, true: 2}, entries)
	seen := map[int32]bool{}
	for _, es := range a.Out {
		for _, e := range es {
			if e.Stack == model.StackPush {
				seen[e.To] = true
			}
		}
	}
	require.Len(t, seen, 2, "two copies: outside and inside a transaction")
}

func TestMutualRecursion(t *testing.T) {
	p := mustCompile(t, "proc even { choose { skip } or { read x; call odd } }\nproc odd { write x; call even }\nproc leaf { read y }\nthread T { call even; call leaf }")
	a := p.Threads[0].Auto
	require.True(t, a.Pushdown())
	require.Len(t, a.Symbols, 3, "the thread's call and the two calls of the cycle")
}

func TestAutomatonThread(t *testing.T) {
	p := mustCompile(t, `thread P automaton {
  init idle
  idle -> t : begin
  t -> t : read x / push f
  t -> idle : end
  idle -> idle : write y / pop f
  idle -> lk : acquire l
  lk -> idle : release l
}`)
	a := p.Threads[0].Auto
	require.Equal(t, []string{
		"0 -begin-> 1", "0 -begin pop f-> 2", "0 -acquire l-> 4",
		"1 -read x push f-> 1", "1 -end-> 0",
		"2 -write y-> 3", "3 -end-> 0",
		"4 -release l-> 0",
	}, shape(p, a))
	require.Equal(t, []string{"idle", "t", "idle'", "idle''", "lk"}, a.Names)
	require.Equal(t, []bool{false, true, true, true, false}, a.InTxn)
	require.Equal(t, [][]int32{nil, nil, nil, nil, {0}}, a.Held)
	require.Equal(t, []string{"f"}, a.Symbols)
	require.Equal(t, model.Recursive, model.ClassOf(a))
	require.Equal(t, pos(6, 24), a.Out[0][1].Ev.Pos, "expanded begin at the access's name")
}

func TestAutomatonSkipAndClasses(t *testing.T) {
	p := mustCompile(t, "thread A automaton { init a  a -> b : skip  b -> c : read x }\nthread B automaton { init a  a -> b : begin b -> a : end }\nthread C { }")
	require.Equal(t, []string{"0 -skip-> 1", "1 -begin-> 3", "3 -read x-> 4", "4 -end-> 2"}, shape(p, p.Threads[0].Auto))
	require.Equal(t, model.StraightLine, model.ClassOf(p.Threads[0].Auto))
	require.Equal(t, model.Regular, model.ClassOf(p.Threads[1].Auto))
	require.Equal(t, 1, p.Threads[2].Auto.NumStates())
	require.Equal(t, model.StraightLine, model.ClassOf(p.Threads[2].Auto))
	require.Contains(t, compileErrors(t, "thread B automaton { init a  a -> a : begin a -> a : end }")[0], "depend on the path")
}

// TestAutomatonInitMentioned: an init state that no edge mentions is an
// error at the init state, also when the automaton has no edges at all
// (lang's doc makes no exception; the thread that does nothing is "{ }").
func TestAutomatonInitMentioned(t *testing.T) {
	require.Equal(t, []string{"t.conc:1:27: unknown state s: no edge mentions it (the automaton has no edges; " +
		"a thread that does nothing is written thread C { })"},
		compileErrors(t, "thread C automaton { init s }"))
	require.Equal(t, []string{"t.conc:1:27: unknown state s: no edge mentions it"},
		compileErrors(t, "thread C automaton { init s  a -> b : read x  b -> a : write x }"))
	mustCompile(t, "thread C automaton { init s  a -> s : read x  s -> a : write x }")
}

func TestProgramClass(t *testing.T) {
	for src, class := range map[string]model.Class{
		"thread A { read x } thread B { repeat 4 { write x } }":        model.StraightLine,
		"thread A { read x } thread B { loop { write x } }":            model.Regular,
		"thread A { choose { read x } or { write x } }":                model.Regular,
		"proc p { choose { skip } or { call p } } thread A { call p }": model.Recursive,
	} {
		require.Equal(t, class, mustCompile(t, src).Class(), src)
	}
}
