package projtest

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// Random observed executions, the tests' own projection builder and the
// pieces both are made of (Step, Script, Interleave), shared by the tests
// of predict and of its finders.

// Shape draws one random observed execution: each thread runs a script
// of transactions, unary accesses and lock blocks; thread 0 may fork the
// others and join them; a random scheduler interleaves the scripts while
// respecting locks, fork and join (a deadlock just ends the trace).
type Shape struct {
	Threads, Vars, Locks int
	Items                int // script items per thread
	Fork                 bool
}

// RandomShape draws a shape of two to four threads.
func RandomShape(r *rand.Rand) Shape {
	return Shape{Threads: 2 + r.IntN(3), Vars: 1 + r.IntN(3), Locks: r.IntN(3), Items: 1 + r.IntN(3), Fork: r.IntN(3) == 0}
}

// Step is one line of a thread's script: an op and its target.
type Step struct {
	Op     string // r w acq rel fork join begin end
	Target string
}

// Script draws thread t's script (thread 0 forks and joins the others
// when the shape forks).
func (s Shape) Script(r *rand.Rand, t int) []Step {
	var out []Step
	access := func() Step {
		op := "r"
		if r.IntN(2) == 0 {
			op = "w"
		}
		return Step{op, fmt.Sprintf("x%d", r.IntN(s.Vars))}
	}
	body := func() []Step {
		var b []Step
		for n := 1 + r.IntN(3); n > 0; n-- {
			if s.Locks > 0 && r.IntN(3) == 0 {
				l := fmt.Sprintf("m%d", r.IntN(s.Locks))
				b = append(b, Step{"acq", l}, access(), Step{"rel", l})
			} else {
				b = append(b, access())
			}
		}
		return b
	}
	for n := 0; n < s.Items; n++ {
		if r.IntN(3) == 0 {
			out = append(out, body()...)
			continue
		}
		out = append(out, Step{Op: "begin"})
		out = append(out, body()...)
		out = append(out, Step{Op: "end"})
	}
	if t == 0 && s.Fork {
		for u := s.Threads - 1; u >= 1; u-- {
			at := r.IntN(len(out) + 1)
			for at > 0 && at < len(out) && (out[at-1].Op == "acq" || out[at].Op == "rel") {
				at-- // keep lock blocks around one access
			}
			out = append(out[:at], append([]Step{{"fork", fmt.Sprintf("T%d", u)}}, out[at:]...)...)
		}
		for u := 1; u < s.Threads; u++ {
			if r.IntN(2) == 0 {
				out = append(out, Step{"join", fmt.Sprintf("T%d", u)})
			}
		}
	}
	return out
}

// RandomTrace returns an STD trace of the shape.
func RandomTrace(r *rand.Rand, s Shape) string {
	scripts := make([][]Step, s.Threads)
	for t := range scripts {
		scripts[t] = s.Script(r, t)
	}
	return Schedule(r, scripts, s.Fork)
}

// schedule interleaves the threads' scripts at random, respecting locks,
// fork (when fork is set, only thread 0 starts) and join, until no thread
// can move.
func Schedule(r *rand.Rand, scripts [][]Step, fork bool) string {
	started := make([]bool, len(scripts))
	for t := range started {
		started[t] = !fork || t == 0
	}
	return Interleave(r, scripts, started, func(next []int, owner map[string]int, t int) bool {
		return Enabled(scripts, next, owner, t)
	})
}

// interleave runs the started threads' scripts in a random order, one
// step a time among those can allows, until none can move: a fork starts
// its thread. It returns the run as STD lines.
func Interleave(r *rand.Rand, scripts [][]Step, started []bool, can func(next []int, owner map[string]int, t int) bool) string {
	next, owner := make([]int, len(scripts)), map[string]int{}
	var b strings.Builder
	for {
		var ready []int
		for t := range scripts {
			if started[t] && next[t] < len(scripts[t]) && can(next, owner, t) {
				ready = append(ready, t)
			}
		}
		if len(ready) == 0 {
			return b.String()
		}
		t := ready[r.IntN(len(ready))]
		st := scripts[t][next[t]]
		next[t]++
		switch st.Op {
		case "acq":
			owner[st.Target] = t + 1
		case "rel":
			delete(owner, st.Target)
		case "fork":
			started[ThreadOf(st.Target)] = true
		}
		b.WriteString(StepLine(t, st))
	}
}

// Enabled tells whether thread t's next step can run: its lock is free,
// or the thread it joins has ended.
func Enabled(scripts [][]Step, next []int, owner map[string]int, t int) bool {
	st := scripts[t][next[t]]
	switch st.Op {
	case "acq":
		return owner[st.Target] == 0
	case "join":
		u := ThreadOf(st.Target)
		return next[u] == len(scripts[u])
	}
	return true
}

// Projection is the test's own builder of the projection program (docs/spec.md
// §3), independent of the package's: one straight-line automaton per thread,
// an access outside a transaction becoming begin; access; end.
func Projection(t testing.TB, src string) *model.Program {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{})
	require.NoError(t, err)
	var evs []trace.Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		evs = append(evs, e)
	}
	p := &model.Program{File: "t.std", Vars: r.Vars().Names(), Locks: r.Locks().Names()}
	for th, name := range r.Threads().Names() {
		a := &model.Automaton{}
		open, held := false, []int32{}
		add := func(op model.Op, target int32) {
			q := int32(len(a.Out))
			a.Out = append(a.Out, []model.Edge{{To: q + 1, Ev: model.Event{Op: op, Target: target}}})
			a.InTxn = append(a.InTxn, open)
			a.Held = append(a.Held, append([]int32(nil), held...))
			switch op {
			case model.OpBegin, model.OpEnd:
				open = op == model.OpBegin
			case model.OpAcquire:
				held = append(held, target)
			case model.OpRelease:
				for i, l := range held {
					if l == target {
						held = append(held[:i:i], held[i+1:]...)
						break
					}
				}
			}
		}
		for _, e := range evs {
			switch {
			case int(e.Thread) != th:
			case e.Op.IsAccess() && !open:
				add(model.OpBegin, -1)
				add(e.Op, e.Target)
				add(model.OpEnd, -1)
			default:
				add(e.Op, e.Target)
			}
		}
		a.Out = append(a.Out, nil)
		a.InTxn = append(a.InTxn, open)
		a.Held = append(a.Held, held)
		p.Threads = append(p.Threads, &model.Thread{Name: name, Auto: a})
	}
	return p
}

// ThreadOf is the number of thread name Tn.
func ThreadOf(name string) int {
	var u int
	fmt.Sscanf(name, "T%d", &u)
	return u
}

// StepLine is st as thread t's STD line.
func StepLine(t int, st Step) string {
	if st.Target == "" {
		return fmt.Sprintf("T%d|%s\n", t, st.Op)
	}
	return fmt.Sprintf("T%d|%s(%s)\n", t, st.Op, st.Target)
}
