// Package enginetest builds the small programs the engines' tests share: a
// notation for straight-line and automaton threads, and .conc source.
// Only tests import it.
package enginetest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// BuildProg builds a program whose threads T1..Tk are given as specs, until
// the .conc front end can be used in these tests. A spec is either a
// straight-line thread, "b r:x w:y e" (tokens b e skip r:V w:V acq:L rel:L
// fork:T join:T, threads named T1..Tk, and docs/spec.md §3's racq:L rrel:L
// post:M wait:M give:S take:S), or an automaton, "@ 0>1 b; 1>2 r:x;
// 2>0 e; 0>0 skip/push:d" (initial state 0; an edge may push or pop a
// symbol). Variables, locks and messages are numbered by first appearance.
func BuildProg(t testing.TB, specs ...string) *model.Program {
	t.Helper()
	b := &progBuilder{t: t, vars: map[string]int32{}, locks: map[string]int32{}, msgs: map[string]int32{}}
	p := &model.Program{}
	for i, spec := range specs {
		var a *model.Automaton
		if rest, ok := strings.CutPrefix(spec, "@"); ok {
			a = b.automaton(rest)
		} else {
			a = b.straight(spec)
		}
		Annotate(a)
		p.Threads = append(p.Threads, &model.Thread{Name: "T" + string(rune('1'+i)), Auto: a})
	}
	p.Vars, p.Locks, p.Msgs = names(b.vars), names(b.locks), names(b.msgs)
	return p
}

type progBuilder struct {
	t     testing.TB
	vars  map[string]int32
	locks map[string]int32
	msgs  map[string]int32
	syms  map[string]int32
}

// orderingOps are the tokens of docs/spec.md §3's ordering events.
var orderingOps = map[string]model.Op{"racq": model.OpReadAcquire, "rrel": model.OpReadRelease,
	"post": model.OpPost, "wait": model.OpWait, "give": model.OpGive, "take": model.OpTake}

func names(m map[string]int32) []string {
	out := make([]string, len(m))
	for n, i := range m {
		out[i] = n
	}
	return out
}

func intern(m map[string]int32, n string) int32 {
	if i, ok := m[n]; ok {
		return i
	}
	m[n] = int32(len(m))
	return m[n]
}

// event parses one event token.
func (b *progBuilder) event(tok string) model.Event {
	b.t.Helper()
	op, arg, _ := strings.Cut(tok, ":")
	simple := map[string]model.Op{"b": model.OpBegin, "e": model.OpEnd, "skip": model.OpSkip}
	if o, ok := simple[op]; ok {
		return model.Event{Op: o, Target: -1}
	}
	require.NotEmpty(b.t, arg, "token %q needs a target", tok)
	switch op {
	case "r", "w":
		o := map[string]model.Op{"r": model.OpRead, "w": model.OpWrite}[op]
		return model.Event{Op: o, Target: intern(b.vars, arg)}
	case "acq", "rel":
		o := map[string]model.Op{"acq": model.OpAcquire, "rel": model.OpRelease}[op]
		return model.Event{Op: o, Target: intern(b.locks, arg)}
	case "fork", "join":
		o := map[string]model.Op{"fork": model.OpFork, "join": model.OpJoin}[op]
		require.True(b.t, strings.HasPrefix(arg, "T"), tok)
		return model.Event{Op: o, Target: int32(arg[1] - '1')}
	case "racq", "rrel":
		return model.Event{Op: orderingOps[op], Target: intern(b.locks, arg)}
	case "post", "wait", "give", "take":
		return model.Event{Op: orderingOps[op], Target: intern(b.msgs, arg)}
	}
	b.t.Fatalf("bad token %q", tok)
	return model.Event{}
}

func (b *progBuilder) straight(spec string) *model.Automaton {
	var evs []model.Event
	for _, tok := range strings.Fields(spec) {
		evs = append(evs, b.event(tok))
	}
	return chain(evs)
}

// Straight is the automaton of one straight-line thread doing evs, with
// InTxn and Held filled in (Annotate).
func Straight(evs []model.Event) *model.Automaton {
	a := chain(evs)
	Annotate(a)
	return a
}

// chain is evs as a path of edges from state 0.
func chain(evs []model.Event) *model.Automaton {
	a := &model.Automaton{Out: make([][]model.Edge, len(evs)+1)}
	for i, e := range evs {
		a.Out[i] = []model.Edge{{To: int32(i + 1), Ev: e}}
	}
	return a
}

func (b *progBuilder) automaton(spec string) *model.Automaton {
	b.t.Helper()
	if b.syms == nil {
		b.syms = map[string]int32{}
	}
	a := &model.Automaton{}
	for _, es := range strings.Split(spec, ";") {
		var from, to int
		f := strings.Fields(strings.ReplaceAll(strings.TrimSpace(es), ">", " "))
		require.Len(b.t, f, 3, "edge %q", es)
		from, to = atoi(b.t, f[0]), atoi(b.t, f[1])
		label, stack, _ := strings.Cut(f[2], "/")
		e := model.Edge{To: int32(to), Ev: b.event(label)}
		if stack != "" {
			kind, sym, _ := strings.Cut(stack, ":")
			e.Stack = map[string]model.StackOp{"push": model.StackPush, "pop": model.StackPop}[kind]
			e.Sym = intern(b.syms, sym)
		}
		for len(a.Out) <= max(from, to) {
			a.Out = append(a.Out, nil)
		}
		a.Out[from] = append(a.Out[from], e)
	}
	a.Symbols = names(b.syms)
	return a
}

func atoi(t testing.TB, s string) int {
	n := 0
	for _, c := range s {
		require.True(t, c >= '0' && c <= '9', "bad state %q", s)
		n = n*10 + int(c-'0')
	}
	return n
}

// Annotate fills InTxn and Held by a search from Init (it trusts the
// automaton to be path-independent, as lang guarantees).
func Annotate(a *model.Automaton) {
	n := a.NumStates()
	a.InTxn, a.Held = make([]bool, n), make([][]int32, n)
	seen := make([]bool, n)
	seen[a.Init] = true
	work := []int32{a.Init}
	for len(work) > 0 {
		q := work[0]
		work = work[1:]
		for _, e := range a.Out[q] {
			if seen[e.To] {
				continue
			}
			seen[e.To] = true
			a.InTxn[e.To] = e.Ev.Op == model.OpBegin || a.InTxn[q] && e.Ev.Op != model.OpEnd
			held := append([]int32(nil), a.Held[q]...)
			switch e.Ev.Op {
			case model.OpAcquire:
				held = append(held, e.Ev.Target)
			case model.OpRelease:
				held = RemoveLock(held, e.Ev.Target)
			}
			a.Held[e.To] = held
			work = append(work, e.To)
		}
	}
}

func RemoveLock(held []int32, l int32) []int32 {
	out := held[:0]
	for _, h := range held {
		if h != l {
			out = append(out, h)
		}
	}
	return out
}

// Compile compiles .conc source, failing t on an error.
func Compile(t testing.TB, src string) *model.Program {
	t.Helper()
	p, err := lang.Compile("test.conc", []byte(src))
	require.NoError(t, err)
	return p
}
