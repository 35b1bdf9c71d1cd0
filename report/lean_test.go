package report

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// awkward are names that JSON, DOT and column widths must get right:
// quotes, backslashes, control characters, HTML, multi-byte and invalid
// UTF-8, the line separators JSON escapes, and the empty name.
var awkward = []string{"T1", "x", "", `q"uote`, `back\slash`, "tab\tnew\nline", "<a&b>", "λ", "über", "\u2028\u2029", "bad\xffutf8", "\x01ctl", "long-name-of-a-thread"}

// randomWitness is a random program and a random violation over it: the run
// need not be a run of the program, which the report does not check.
func randomWitness(rng *rand.Rand) (*model.Program, engines.Result) {
	pick := func() string { return awkward[rng.IntN(len(awkward))] }
	p := &model.Program{File: pick()}
	for range 1 + rng.IntN(4) {
		p.Threads = append(p.Threads, &model.Thread{Name: pick(), Auto: &model.Automaton{Out: make([][]model.Edge, 1)}})
	}
	for range 1 + rng.IntN(3) {
		p.Vars = append(p.Vars, pick())
		p.Locks = append(p.Locks, pick())
	}
	files := []string{p.File, pick()}
	w := &model.Witness{LockEdges: rng.IntN(2) == 0}
	for range 2 + rng.IntN(40) {
		op := model.Op(1 + rng.IntN(int(model.OpJoin)))
		ev := model.Event{Op: op, Target: -1}
		switch {
		case op.IsAccess():
			ev.Target = int32(rng.IntN(len(p.Vars)))
		case op == model.OpAcquire || op == model.OpRelease:
			ev.Target = int32(rng.IntN(len(p.Locks)))
		case op.HasTarget():
			ev.Target = int32(rng.IntN(len(p.Threads)))
		}
		if rng.IntN(5) > 0 {
			ev.Pos = model.Pos{File: files[rng.IntN(2)], Line: int64(1 + rng.IntN(100000)), Col: int32(rng.IntN(3) * rng.IntN(90))}
		}
		w.Run = append(w.Run, model.Step{Thread: int32(rng.IntN(len(p.Threads))), Ev: ev})
	}
	for range 1 + rng.IntN(4) {
		a, b := rng.IntN(len(w.Run)), rng.IntN(len(w.Run))
		if a != b {
			w.Cycle = append(w.Cycle, model.Conflict{From: min(a, b), To: max(a, b)})
		}
	}
	res := engines.Result{Verdict: engines.Violation, Engine: pick(), Reason: pick(), Witness: w,
		Stats: engines.Stats{States: rng.Int64N(1000), Events: int64(len(w.Run)), Millis: rng.Int64N(100)}}
	return p, res
}

// renderAll is every renderer's output, and the text and DOT conc
// predict asks for (abridged, with the transactions' lines).
func renderAll(t *testing.T, r *Report) [6]string {
	var out [6]bytes.Buffer
	require.NoError(t, WriteText(&out[0], r, TextOptions{}))
	require.NoError(t, WriteJSON(&out[1], r))
	require.NoError(t, WriteDOT(&out[2], r))
	require.NoError(t, WriteText(&out[3], r, TextOptions{Quiet: true}))
	r.TxnLines = true
	require.NoError(t, WriteText(&out[4], r, TextOptions{Lead: 2}))
	require.NoError(t, WriteDOT(&out[5], r))
	r.TxnLines = false
	var s [6]string
	for i := range out {
		s[i] = out[i].String()
	}
	return s
}

// TestLeanRendersAsSpelledOut: a lean report (events spelled as they are
// written) renders byte for byte as the report with every event spelled
// out, in text, JSON and DOT, and its events read the same.
func TestLeanRendersAsSpelledOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		p, res := randomWitness(rng)
		full, err := Build(p, res)
		require.NoError(t, err)
		lean, err := BuildLean(p, res)
		require.NoError(t, err)
		require.Nil(t, lean.Witness.Run, "a lean report keeps no events")
		require.Equal(t, renderAll(t, full), renderAll(t, lean))
		require.Equal(t, full.Witness.Txns, lean.Witness.Txns)
		require.Equal(t, len(full.Witness.Run), lean.Witness.Len())
		for i, e := range full.Witness.Run {
			got := lean.Witness.Event(i)
			if !e.OnCycle {
				got.Txn = e.Txn // a lean run knows the cycle events' transactions only
			}
			require.Equal(t, e, got)
		}
	}
}

// TestJSONStreamMatchesEncoder: WriteJSON, which writes the witness run
// itself, gives what encoding/json gives for the whole report, on random
// reports with awkward names (and on a run left nil and an empty one).
func TestJSONStreamMatchesEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	check := func(r *Report) {
		var got, want bytes.Buffer
		require.NoError(t, WriteJSON(&got, r))
		require.NoError(t, encodeJSON(&want, r))
		require.Equal(t, want.String(), got.String())
	}
	for range 300 {
		p, res := randomWitness(rng)
		r, err := Build(p, res)
		require.NoError(t, err)
		r.First = rng.IntN(3)
		if rng.IntN(3) == 0 {
			r.Violations = []Violation{{Thread: `"run": []`, Begin: 3, Cycle: []TraceStep{{Thread: "A", Line: 4}}}}
		}
		check(r)
		lean, err := BuildLean(p, res)
		require.NoError(t, err)
		lean.First, lean.Violations = r.First, r.Violations
		var got bytes.Buffer
		require.NoError(t, WriteJSON(&got, lean))
		var want bytes.Buffer
		require.NoError(t, encodeJSON(&want, r))
		require.Equal(t, want.String(), got.String())
	}
	check(&Report{Verdict: "violation", Witness: &Witness{}})
	check(&Report{Verdict: "violation", Witness: &Witness{Run: []Event{}, Cycle: []Conflict{}}})
}
