package observed

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

// The random traces and the projection builder of package predict's tests,
// copied: TestObservedWitness runs on the same traces.

// traceShape draws one random observed execution: each thread runs a script
// of transactions, unary accesses and lock blocks; thread 0 may fork the
// others and join them; a random scheduler interleaves the scripts while
// respecting locks, fork and join (a deadlock just ends the trace).
type traceShape struct {
	threads, vars, locks int
	items                int // script items per thread
	fork                 bool
}

func randomShape(r *rand.Rand) traceShape {
	return traceShape{threads: 2 + r.IntN(3), vars: 1 + r.IntN(3), locks: r.IntN(3), items: 1 + r.IntN(3), fork: r.IntN(3) == 0}
}

type step struct {
	op     string // r w acq rel fork join begin end
	target string
}

func (s traceShape) script(r *rand.Rand, t int) []step {
	var out []step
	access := func() step {
		op := "r"
		if r.IntN(2) == 0 {
			op = "w"
		}
		return step{op, fmt.Sprintf("x%d", r.IntN(s.vars))}
	}
	body := func() []step {
		var b []step
		for n := 1 + r.IntN(3); n > 0; n-- {
			if s.locks > 0 && r.IntN(3) == 0 {
				l := fmt.Sprintf("m%d", r.IntN(s.locks))
				b = append(b, step{"acq", l}, access(), step{"rel", l})
			} else {
				b = append(b, access())
			}
		}
		return b
	}
	for n := 0; n < s.items; n++ {
		if r.IntN(3) == 0 {
			out = append(out, body()...)
			continue
		}
		out = append(out, step{op: "begin"})
		out = append(out, body()...)
		out = append(out, step{op: "end"})
	}
	if t == 0 && s.fork {
		for u := s.threads - 1; u >= 1; u-- {
			at := r.IntN(len(out) + 1)
			for at > 0 && at < len(out) && (out[at-1].op == "acq" || out[at].op == "rel") {
				at-- // keep lock blocks around one access
			}
			out = append(out[:at], append([]step{{"fork", fmt.Sprintf("T%d", u)}}, out[at:]...)...)
		}
		for u := 1; u < s.threads; u++ {
			if r.IntN(2) == 0 {
				out = append(out, step{"join", fmt.Sprintf("T%d", u)})
			}
		}
	}
	return out
}

// randomTrace returns an STD trace of the shape.
func randomTrace(r *rand.Rand, s traceShape) string {
	scripts := make([][]step, s.threads)
	for t := range scripts {
		scripts[t] = s.script(r, t)
	}
	return schedule(r, scripts, s.fork)
}

// schedule interleaves the threads' scripts at random, respecting locks,
// fork (when fork is set, only thread 0 starts) and join, until no thread
// can move.
func schedule(r *rand.Rand, scripts [][]step, fork bool) string {
	started := make([]bool, len(scripts))
	for t := range started {
		started[t] = !fork || t == 0
	}
	return interleave(r, scripts, started, func(next []int, owner map[string]int, t int) bool {
		return enabled(scripts, next, owner, t)
	})
}

// interleave runs the started threads' scripts in a random order, one
// step a time among those can allows, until none can move: a fork starts
// its thread. It returns the run as STD lines.
func interleave(r *rand.Rand, scripts [][]step, started []bool, can func(next []int, owner map[string]int, t int) bool) string {
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
		switch st.op {
		case "acq":
			owner[st.target] = t + 1
		case "rel":
			delete(owner, st.target)
		case "fork":
			started[threadOf(st.target)] = true
		}
		b.WriteString(stepLine(t, st))
	}
}

func enabled(scripts [][]step, next []int, owner map[string]int, t int) bool {
	st := scripts[t][next[t]]
	switch st.op {
	case "acq":
		return owner[st.target] == 0
	case "join":
		u := threadOf(st.target)
		return next[u] == len(scripts[u])
	}
	return true
}

// projectionOf is the test's own builder of the projection program (docs/spec.md
// §3), independent of the package's: one straight-line automaton per thread,
// an access outside a transaction becoming begin; access; end.
func projectionOf(t testing.TB, src string) *model.Program {
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

func threadOf(name string) int {
	var u int
	fmt.Sscanf(name, "T%d", &u)
	return u
}

func stepLine(t int, st step) string {
	if st.target == "" {
		return fmt.Sprintf("T%d|%s\n", t, st.op)
	}
	return fmt.Sprintf("T%d|%s(%s)\n", t, st.op, st.target)
}
