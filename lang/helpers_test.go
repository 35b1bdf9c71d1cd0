package lang

import (
	"fmt"
	"slices"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

// mustCompile compiles src and checks the model's invariants on every
// thread.
func mustCompile(t testing.TB, src string) *model.Program {
	t.Helper()
	p, err := Compile("t.conc", []byte(src))
	require.NoError(t, err)
	require.NotNil(t, p)
	for _, th := range p.Threads {
		require.NoError(t, checkInvariants(p, th.Auto), "thread %s", th.Name)
	}
	return p
}

// compileErrors compiles src, which must fail, and returns its messages
// with positions.
func compileErrors(t testing.TB, src string) []string {
	t.Helper()
	p, err := Compile("t.conc", []byte(src))
	require.Error(t, err)
	require.Nil(t, p)
	var out []string
	for _, e := range err.(ErrorList) {
		out = append(out, e.Error())
	}
	return out
}

// shape renders an automaton's edges, one string each, in state order:
// "0 -read x-> 1", "3 -skip push s-> 7".
func shape(p *model.Program, a *model.Automaton) []string {
	var out []string
	for q, es := range a.Out {
		for _, e := range es {
			ev := e.Ev.Op.String()
			if e.Ev.Op.HasTarget() {
				ev += " " + p.TargetName(e.Ev)
			}
			switch e.Stack {
			case model.StackPush:
				ev += " push " + a.Symbols[e.Sym]
			case model.StackPop:
				ev += " pop " + a.Symbols[e.Sym]
			}
			out = append(out, fmt.Sprintf("%d -%s-> %d", q, ev, e.To))
		}
	}
	return out
}

// checkInvariants checks model/automaton.go's contract edge by edge: the
// contexts of an edge's ends match its event, so along every path begin and
// end alternate, accesses lie in transactions and lock events are valid.
func checkInvariants(p *model.Program, a *model.Automaton) error {
	n := a.NumStates()
	if len(a.InTxn) != n || len(a.Held) != n || int(a.Init) >= n || a.Init < 0 {
		return fmt.Errorf("malformed: %d states, %d InTxn, %d Held, init %d", n, len(a.InTxn), len(a.Held), a.Init)
	}
	if a.InTxn[a.Init] || len(a.Held[a.Init]) > 0 {
		return fmt.Errorf("init state is in a transaction or holds locks")
	}
	for q, es := range a.Out {
		if !slices.IsSorted(a.Held[q]) {
			return fmt.Errorf("state %d: Held not sorted", q)
		}
		for _, e := range es {
			if err := checkEdge(p, a, int32(q), e); err != nil {
				return fmt.Errorf("edge %d -> %d (%v): %w", q, e.To, e.Ev.Op, err)
			}
		}
	}
	return nil
}

func checkEdge(p *model.Program, a *model.Automaton, q int32, e model.Edge) error {
	if e.To < 0 || int(e.To) >= a.NumStates() {
		return fmt.Errorf("target out of range")
	}
	if e.Stack != model.StackNone && (e.Sym < 0 || int(e.Sym) >= len(a.Symbols)) {
		return fmt.Errorf("stack symbol out of range")
	}
	from, to := a.InTxn[q], a.InTxn[e.To]
	held, next := a.Held[q], a.Held[e.To]
	switch op := e.Ev.Op; op {
	case model.OpBegin:
		return want(!from && to && slices.Equal(held, next), "begin must enter a transaction")
	case model.OpEnd:
		return want(from && !to && slices.Equal(held, next), "end must leave a transaction")
	case model.OpRead, model.OpWrite:
		if e.Ev.Target < 0 || int(e.Ev.Target) >= len(p.Vars) {
			return fmt.Errorf("bad variable %d", e.Ev.Target)
		}
		return want(from && to && slices.Equal(held, next), "access outside a transaction")
	case model.OpAcquire, model.OpRelease:
		l := e.Ev.Target
		if l < 0 || int(l) >= len(p.Locks) {
			return fmt.Errorf("bad lock %d", l)
		}
		_, has := slices.BinarySearch(held, l)
		exp := slices.Clone(held)
		if op == model.OpAcquire {
			if has {
				return fmt.Errorf("acquire of a held lock")
			}
			exp = append(exp, l)
			slices.Sort(exp)
		} else {
			if !has {
				return fmt.Errorf("release of a lock not held")
			}
			exp = slices.DeleteFunc(exp, func(x int32) bool { return x == l })
		}
		return want(from == to && slices.Equal(exp, next), "lock event changes contexts wrongly")
	case model.OpSkip:
		return want(from == to && slices.Equal(held, next), "epsilon edge changes the context")
	}
	return fmt.Errorf("unexpected op %v", e.Ev.Op)
}

func want(ok bool, msg string) error {
	if ok {
		return nil
	}
	return fmt.Errorf("%s", msg)
}
