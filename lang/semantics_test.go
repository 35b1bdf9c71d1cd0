package lang

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

// TestCompiledLanguageMatchesSyntax checks, on random programs, that each
// compiled thread has exactly the runs its syntax describes: the event
// sequences of length ≤ maxLen that its automaton (pushdown or not) can
// emit from Init are the prefixes of the runs of a direct, set-based
// semantics of the syntax tree. This is what the epsilon-free joins, the
// per-context procedure copies and the unary transactions must preserve.
func TestCompiledLanguageMatchesSyntax(t *testing.T) {
	const programs = 400
	for seed := uint64(1); seed <= programs; seed++ {
		src := randomProgram(rand.New(rand.NewPCG(seed, 7)))
		f, errs := parse("t.conc", []byte(src))
		require.Empty(t, errs, "seed %d:\n%s", seed, src)
		p := mustCompile(t, src)
		ref := newRefSemantics(f)
		want := ref.block(threadBody(f), false).runs
		got := runsOf(p, p.Threads[0].Auto)
		require.Equal(t, sortedKeys(want), sortedKeys(got), "seed %d:\n%s", seed, src)
	}
}

const maxLen = 6

// randomProgram writes a program of one thread over variables x, y and
// locks l, m, with procedures p0..p2 that may call each other (and
// recurse), all lock-safe: locks are taken only by sync, never re-entrantly.
func randomProgram(r *rand.Rand) string {
	g := &progGen{r: r}
	var b strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "proc p%d %s\n", i, g.block(2, nil))
	}
	fmt.Fprintf(&b, "thread T %s\n", g.block(3, nil))
	return b.String()
}

type progGen struct{ r *rand.Rand }

func (g *progGen) block(depth int, held []string) string {
	n := g.r.IntN(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.stmt(depth, held)
	}
	return "{ " + strings.Join(parts, "; ") + " }"
}

func (g *progGen) stmt(depth int, held []string) string {
	k := g.r.IntN(12)
	if depth == 0 {
		k = g.r.IntN(4)
	}
	if k >= 10 {
		k = 5 + k%2 // loops and repeats, again: joins are what can go wrong
	}
	switch k {
	case 0:
		return "read x"
	case 1:
		return "write y, x"
	case 2:
		return "skip"
	case 3:
		if len(held) > 0 {
			return "read y" // a procedure may take the held lock again
		}
		return fmt.Sprintf("call p%d", g.r.IntN(3))
	case 4:
		return "atomic " + g.block(depth-1, held)
	case 5:
		return "loop " + g.block(depth-1, held)
	case 6:
		return fmt.Sprintf("repeat %d %s", g.r.IntN(3), g.block(depth-1, held))
	case 7:
		return "choose " + g.block(depth-1, held) + " or " + g.block(depth-1, held)
	default:
		for _, l := range []string{"l", "m"} {
			if !slices.Contains(held, l) {
				return "sync " + l + " " + g.block(depth-1, append(slices.Clone(held), l))
			}
		}
		return "write x"
	}
}

func threadBody(f *File) *Block {
	for _, d := range f.Decls {
		if t, ok := d.(*ThreadDecl); ok {
			return t.Body
		}
	}
	return nil
}

// refSemantics is the reference: for each construct, its complete runs and
// its runs (every prefix of a possibly infinite execution), each cut to
// maxLen events, one byte an event (b, e; r/R read x/y; w/W write x/y; a/A
// acquire l/m; u/U release l/m). Procedures are solved by Kleene iteration,
// which is exact here because cut runs form a finite domain.
type refSemantics struct {
	procs map[string]*ProcDecl
	sol   map[refKey]lang // current approximation of each procedure
}

type refKey struct {
	proc  string
	inTxn bool
}

type set map[string]bool

// lang is a construct's complete runs and its prefix-closed runs.
type lang struct{ done, runs set }

func newRefSemantics(f *File) *refSemantics {
	r := &refSemantics{procs: map[string]*ProcDecl{}, sol: map[refKey]lang{}}
	for _, d := range f.Decls {
		if p, ok := d.(*ProcDecl); ok {
			r.procs[p.Name.Name] = p
			for _, in := range []bool{false, true} {
				r.sol[refKey{p.Name.Name, in}] = lang{set{}, single("")}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for k, old := range r.sol {
			next := r.block(r.procs[k.proc].Body, k.inTxn)
			if len(next.done) != len(old.done) || len(next.runs) != len(old.runs) {
				r.sol[k], changed = next, true
			}
		}
	}
	return r
}

func cut(s string) string { return s[:min(len(s), maxLen)] }

func cat(a, b set) set {
	out := set{}
	for x := range a {
		if len(x) >= maxLen {
			out[x] = true
			continue
		}
		for y := range b {
			out[cut(x+y)] = true
		}
	}
	return out
}

func union(a, b set) set {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

func single(s string) set { return set{s: true} }

func event(s string) lang { return lang{single(s), prefixes(single(s))} }

var empty = lang{single(""), single("")}

// then is sequential composition: runs of a, or a complete run of a
// followed by a run of b.
func (a lang) then(b lang) lang {
	return lang{cat(a.done, b.done), union(a.runs, cat(a.done, b.runs))}
}

func (a lang) or(b lang) lang {
	return lang{union(a.done, b.done), union(a.runs, b.runs)}
}

func (r *refSemantics) block(b *Block, inTxn bool) lang {
	out := empty
	for _, s := range b.Stmts.List {
		out = out.then(r.stmt(s, inTxn))
	}
	return out
}

func (r *refSemantics) stmt(s Stmt, inTxn bool) lang {
	switch s := s.(type) {
	case *Access:
		out := empty
		for _, id := range s.Names {
			ev := map[string]string{"readx": "r", "ready": "R", "writex": "w", "writey": "W"}[s.Op+id.Name]
			if !inTxn {
				ev = "b" + ev + "e"
			}
			out = out.then(event(ev))
		}
		return out
	case *Sync:
		acq, rel := "a", "u"
		if s.Lock.Name == "m" {
			acq, rel = "A", "U"
		}
		return event(acq).then(r.block(s.Body, inTxn)).then(event(rel))
	case *Atomic:
		if inTxn {
			return r.block(s.Body, true)
		}
		return event("b").then(r.block(s.Body, true)).then(event("e"))
	case *Loop:
		body, out := r.block(s.Body, inTxn), empty
		for {
			next := out.or(out.then(body))
			if len(next.done) == len(out.done) && len(next.runs) == len(out.runs) {
				return out
			}
			out = next
		}
	case *Repeat:
		out := empty
		n, _ := parseCount(s.Count.Text)
		for i := 0; i < n; i++ {
			out = out.then(r.block(s.Body, inTxn))
		}
		return out
	case *Choose:
		out := lang{set{}, set{}}
		for _, br := range s.Branches {
			out = out.or(r.block(br, inTxn))
		}
		return out
	case *Call:
		return r.sol[refKey{s.Proc.Name, inTxn}]
	}
	return empty // skip
}

func prefixes(s set) set {
	out := set{}
	for x := range s {
		for i := 0; i <= len(x); i++ {
			out[x[:i]] = true
		}
	}
	return out
}

func sortedKeys(s set) []string { return slices.Sorted(maps.Keys(s)) }

// runsOf computes the event sequences of length ≤ maxLen that a can emit
// from Init with the empty stack, exactly, by a least fixpoint over frame
// summaries: done[q] holds the pairs (w, x) such that from q the current
// frame can emit w and reach x, a state with a pop edge (a return), its
// calls all returned; runs[q] holds what can be emitted from q while staying
// in the frame or in calls that never return.
func runsOf(p *model.Program, a *model.Automaton) set {
	type ret struct {
		w string
		x int32
	}
	n := a.NumStates()
	done := make([]map[ret]bool, n)
	runs := make([]set, n)
	for q := range runs {
		done[q], runs[q] = map[ret]bool{}, single("")
	}
	add := func(q int, w string, x int32, changed *bool) {
		if r := (ret{cut(w), x}); !done[q][r] {
			done[q][r], *changed = true, true
		}
	}
	addRun := func(q int, w string, changed *bool) {
		if w = cut(w); !runs[q][w] {
			runs[q][w], *changed = true, true
		}
	}
	// returns lists the states a frame entered at e returns to, by symbol,
	// with what it emitted on the way.
	returns := func(e int32, sym int32, f func(w string, to int32)) {
		for r := range done[e] {
			for _, pe := range a.Out[r.x] {
				if pe.Stack == model.StackPop && pe.Sym == sym {
					f(r.w, pe.To)
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for q, es := range a.Out {
			for _, e := range es {
				switch e.Stack {
				case model.StackPop:
					add(q, "", int32(q), &changed)
				case model.StackPush:
					for w := range runs[e.To] {
						addRun(q, w, &changed)
					}
					returns(e.To, e.Sym, func(w string, to int32) {
						for v := range runs[to] {
							addRun(q, w+v, &changed)
						}
						for r := range done[to] {
							add(q, w+r.w, r.x, &changed)
						}
					})
				default:
					ev := ""
					if e.Ev.Op != model.OpSkip {
						ev = eventByte(p, e.Ev)
					}
					for v := range runs[e.To] {
						addRun(q, ev+v, &changed)
					}
					for r := range done[e.To] {
						add(q, ev+r.w, r.x, &changed)
					}
				}
			}
		}
	}
	return runs[a.Init]
}

func eventByte(p *model.Program, e model.Event) string {
	name := p.TargetName(e)
	switch e.Op {
	case model.OpBegin:
		return "b"
	case model.OpEnd:
		return "e"
	case model.OpRead:
		return map[string]string{"x": "r", "y": "R"}[name]
	case model.OpWrite:
		return map[string]string{"x": "w", "y": "W"}[name]
	case model.OpAcquire:
		return map[string]string{"l": "a", "m": "A"}[name]
	case model.OpRelease:
		return map[string]string{"l": "u", "m": "U"}[name]
	}
	return "?"
}
