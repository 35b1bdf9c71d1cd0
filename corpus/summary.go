package corpus

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
)

// Summary is what a run over traces found, in a form that merges: a row
// per trace, and the groups across them.
type Summary struct {
	// Command is "monitor" or "predict --all"; Flags the flags that
	// change the answers ("--lock-edges --cycles"): only summaries of
	// one command with the same flags merge.
	Command string `json:"command"`
	Flags   string `json:"flags"`
	// Traces are sorted by name; Groups by kind, then signature.
	Traces []Trace `json:"traces"`
	Groups []Group `json:"groups"`
}

// Trace is one trace's row of the verdict table.
type Trace struct {
	Name string `json:"trace"`
	// Verdict is "serializable", "violation", "unknown" or "error" (the
	// trace could not be checked: Reason says why, as the command would
	// have said it).
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	// First is the line after which the trace is not serializable
	// (monitor).
	First int64 `json:"first,omitempty"`
	// Count is how many broken (monitor --cycles: violating)
	// transactions, or patterns (predict --all), the trace's groups hold;
	// Groups how many groups it has.
	Count  int64 `json:"count"`
	Groups int   `json:"groups"`
	Events int64 `json:"events"`
	// Incomplete says why the trace's groups may not be all (a budget
	// cut them short); Dropped counts predict --all's groups none of
	// whose witnesses replays.
	Incomplete string `json:"incomplete,omitempty"`
	Dropped    int    `json:"dropped,omitempty"`
	// Skipped and SkippedKinds are what --lenient skipped.
	Skipped      *int64           `json:"skipped,omitempty"`
	SkippedKinds map[string]int64 `json:"skipped_kinds,omitempty"`
}

// Group is the groups of one signature across the traces.
type Group struct {
	// Kind is "broken" (conc monitor: transactions broken by
	// themselves), "joint" (its joint violation), "violating" (monitor
	// --cycles) or "predicted" (predict --all).
	Kind string `json:"kind"`
	// Signature is the groups' signature with object ids normalised
	// (Normalise).
	Signature string `json:"signature"`
	// Count adds up the groups' counts; Traces is how many traces have
	// one.
	Count  int64   `json:"count"`
	Traces int     `json:"traces"`
	Ex     Example `json:"example"`
}

// Example is the group of the least (trace, line), as its trace's report
// shows it.
type Example struct {
	Trace string `json:"trace"`
	Line  int64  `json:"line"`
	// Signature is its own, names as the trace has them; Vars the
	// variables it names.
	Signature string   `json:"signature"`
	Vars      []string `json:"variables"`
	// Explanation is the lines the text prints under the group's
	// signature (its path, cycle or witness, in words); Detail the group
	// as the trace's JSON report has it.
	Explanation []string        `json:"explanation"`
	Detail      json.RawMessage `json:"detail"`
}

// before reports whether e is the example to keep over f: the least
// (trace, line).
func (e *Example) before(f *Example) bool {
	if c := cmp.Compare(e.Trace, f.Trace); c != 0 {
		return c < 0
	}
	if e.Line != f.Line {
		return e.Line < f.Line
	}
	// Two groups of one trace whose signatures normalise alike, first at
	// one line: the order of their own signatures decides.
	return e.Signature < f.Signature
}

// Kinds are the groups' kinds, in the order a report lists groups that
// are otherwise alike.
var Kinds = []string{"broken", "violating", "predicted", "joint"}

type groupKey struct{ kind, signature string }

// Merger merges summaries: Add each, then Summary. Adding costs the size
// of what is added, so merging is linear in the summaries (and
// Summary sorts).
type Merger struct {
	command, flags string
	started        bool
	traces         map[string]Trace
	groups         map[groupKey]*Group
}

// NewMerger is an empty merge.
func NewMerger() *Merger {
	return &Merger{traces: map[string]Trace{}, groups: map[groupKey]*Group{}}
}

// Add merges s in. Summaries of another command or other flags, and a
// trace already merged (the same summary twice, or overlapping parts of
// a corpus), are refused: counts would be wrong.
func (m *Merger) Add(s *Summary) error {
	if !m.started {
		m.command, m.flags, m.started = s.Command, s.Flags, true
	}
	if s.Command != m.command || s.Flags != m.flags {
		return fmt.Errorf("summaries of different runs: %q and %q", describe(m.command, m.flags), describe(s.Command, s.Flags))
	}
	for _, t := range s.Traces {
		if _, ok := m.traces[t.Name]; ok {
			return fmt.Errorf("trace %s is in two summaries", t.Name)
		}
	}
	for _, t := range s.Traces {
		m.traces[t.Name] = t
	}
	for i := range s.Groups {
		m.addGroup(&s.Groups[i])
	}
	return nil
}

func (m *Merger) addGroup(g *Group) {
	k := groupKey{g.Kind, g.Signature}
	h, ok := m.groups[k]
	if !ok {
		c := *g
		m.groups[k] = &c
		return
	}
	h.Count += g.Count
	h.Traces += g.Traces
	if g.Ex.before(&h.Ex) {
		h.Ex = g.Ex
	}
}

// Summary is the merge so far, its traces and groups sorted.
func (m *Merger) Summary() *Summary {
	s := &Summary{Command: m.command, Flags: m.flags, Traces: make([]Trace, 0, len(m.traces)), Groups: make([]Group, 0, len(m.groups))}
	for _, t := range m.traces {
		s.Traces = append(s.Traces, t)
	}
	slices.SortFunc(s.Traces, func(a, b Trace) int { return cmp.Compare(a.Name, b.Name) })
	for _, g := range m.groups {
		s.Groups = append(s.Groups, *g)
	}
	slices.SortFunc(s.Groups, func(a, b Group) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Signature, b.Signature))
	})
	return s
}

// Merge is the summary of a's traces and b's (Merger).
func Merge(a, b *Summary) (*Summary, error) {
	m := NewMerger()
	if err := m.Add(a); err != nil {
		return nil, err
	}
	if err := m.Add(b); err != nil {
		return nil, err
	}
	return m.Summary(), nil
}

func describe(command, flags string) string {
	if flags == "" {
		return command
	}
	return command + " " + flags
}

// Verdicts from best to worst: the corpus's verdict is its traces' worst.
// A violation outranks an unknown (a violation found is an answer, as for
// one trace, docs/spec.md §7), and a trace that could not be checked
// outranks every verdict: the report lacks it.
var Verdicts = []string{"serializable", "unknown", "violation", "error"}

// Verdict is the worst of s's traces' verdicts (serializable for none).
func (s *Summary) Verdict() string {
	worst := 0
	for _, t := range s.Traces {
		worst = max(worst, slices.Index(Verdicts, t.Verdict))
	}
	return Verdicts[worst]
}
