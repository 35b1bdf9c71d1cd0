package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/monitor/atomicity"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// blameSpool collects the broken transactions the tracker hands over, on
// the tracker's goroutine (the reader's tables are still growing then, so
// nothing is named until the trace is read): for the text, DOT and HTML
// one example and a count per signature of ids, so that memory does not
// grow with their number; for the JSON, every one.
type blameSpool struct {
	keepAll bool
	all     []atomicity.Broken
	index   map[blameKey]int
	groups  []blameGroup
}

// blameSite is an event's part of a signature: its op and location, or
// its target when it has none (report.BrokenTxn.Signature's rule, by id).
type blameSite struct {
	op          model.Op
	loc, target int32
}

type blameKey struct{ leave, interrupt, back blameSite }

type blameGroup struct {
	count int
	first atomicity.Broken
}

func siteOf(ev trace.Event) blameSite {
	if ev.Loc >= 0 {
		return blameSite{ev.Op, ev.Loc, -1}
	}
	return blameSite{ev.Op, -1, ev.Target}
}

// add is atomicity.Options.OnBroken.
func (s *blameSpool) add(b *atomicity.Broken) {
	if s.keepAll {
		s.all = append(s.all, *b)
		return
	}
	if s.index == nil {
		s.index = map[blameKey]int{}
	}
	key := blameKey{siteOf(b.Leave()), siteOf(b.Interrupt()), siteOf(b.Return())}
	k, ok := s.index[key]
	if !ok {
		k = len(s.groups)
		s.index[key] = k
		s.groups = append(s.groups, blameGroup{first: *b})
	}
	g := &s.groups[k]
	g.count++
	if b.Begin < g.first.Begin {
		g.first = *b
	}
}

// set names the collected transactions with r's tables and puts them,
// grouped, into rep.
func (s *blameSpool) set(r *trace.Reader, rep *report.Report) {
	g := report.NewBlamer(s.keepAll)
	for i := range s.all {
		g.Add(brokenTxn(r, &s.all[i]))
	}
	for i := range s.groups {
		g.AddGroup(brokenTxn(r, &s.groups[i].first), s.groups[i].count)
	}
	g.Set(rep)
}

// brokenTxn is b named by r's tables.
func brokenTxn(r *trace.Reader, b *atomicity.Broken) report.BrokenTxn {
	t := report.BrokenTxn{Thread: r.Threads().Name(b.Thread), Begin: int(b.Begin), Cut: b.Cut, Elided: b.Elided, ElidedAt: b.ElidedAt}
	if b.End >= 0 {
		end := int(b.End)
		t.End = &end
	}
	for _, h := range b.Path {
		t.Path = append(t.Path, report.PathHop{From: pathEvent(r, h.From), To: pathEvent(r, h.To)})
	}
	return t
}

// pathEvent is ev named by r's tables.
func pathEvent(r *trace.Reader, ev trace.Event) report.PathEvent {
	target := r.TargetName(ev)
	loc := ""
	if ev.Loc >= 0 {
		loc = r.Locs().Name(ev.Loc)
	}
	name := r.Threads().Name(ev.Thread)
	return report.NewPathEvent(report.NewTraceEvent(int(ev.Line), name, ev.Op, trace.OpName[ev.Op], target, loc))
}

// blameReport turns rep, the conflict-graph monitor's answer with its
// first cycle only, into the default answer: the broken transactions
// grouped, the joint violation (that first cycle) when none is broken,
// and the count of transactions on a cycle.
func blameReport(ctx context.Context, e *env, path string, r *trace.Reader, rep *report.Report, s *blameSpool, first []monitor.TraceViolation, stopped string) error {
	if stopped == "" {
		s.set(r, rep)
	}
	rep.NonAtomicUnknown = stopped
	rep.TraceLines = int(r.Stats().Lines)
	rep.OnCycle, rep.Violating = rep.Violating, nil
	if stopped == "" && *rep.NonAtomic == 0 && len(rep.Violations) > 0 {
		if err := groupViolations(ctx, e, path, rep); err != nil {
			return err
		}
		rep.Joint = rep.Groups
		if len(first) > 0 {
			jointEnds(r, rep.Joint, &first[0])
		}
	}
	rep.Violations, rep.Groups = nil, nil
	return nil
}

// jointEnds gives the joint violation's transactions their ends, which
// the monitor kept for its first cycle (v.Ends): the grouping knows only
// those of the violations it was given, and the default answer keeps one.
func jointEnds(r *trace.Reader, joint []report.Group, v *monitor.TraceViolation) {
	ends := map[string]int{}
	key := func(thread string, begin int) string { return thread + "|" + strconv.Itoa(begin) }
	for i, c := range v.Cycle {
		if i < len(v.Ends) && v.Ends[i] >= 0 {
			ends[key(r.Threads().Name(c.Thread), int(c.Begin))] = int(v.Ends[i])
		}
	}
	for _, g := range joint {
		for i := range g.Cycle {
			t := &g.Cycle[i]
			if end, ok := ends[key(t.Thread, t.Begin)]; ok && t.End == nil {
				t.End = &end
			}
		}
	}
}

// setString is a string flag that knows whether it was given (an empty
// --not-atomic "" is an error, not the flag's absence).
type setString struct {
	value string
	set   bool
}

func (s *setString) String() string     { return s.value }
func (s *setString) Set(v string) error { s.value, s.set = v, true; return nil }

// notAtomic is --not-atomic's predicate on begin events, and which of its
// SPECs named a begin (it runs where the reader does; read used after the
// trace is read).
type notAtomic struct {
	lines map[int64]bool
	locs  map[string]bool
	used  map[string]bool
	r     *trace.Reader
}

// is tells whether the begin ev opens a block that is not atomic.
func (n *notAtomic) is(ev *trace.Event) bool {
	if n.lines[ev.Line] {
		n.used["line:"+strconv.FormatInt(ev.Line, 10)] = true
		return true
	}
	if ev.Loc >= 0 && len(n.locs) > 0 {
		if loc := n.r.Locs().Name(ev.Loc); n.locs[loc] {
			n.used[loc] = true
			return true
		}
	}
	return false
}

// warnUnused says which SPECs named no begin, on standard error: a typo
// there would otherwise change nothing, silently.
func (n *notAtomic) warnUnused(e *env) {
	if n == nil {
		return
	}
	var unused []string
	for l := range n.lines {
		if spec := "line:" + strconv.FormatInt(l, 10); !n.used[spec] {
			unused = append(unused, spec)
		}
	}
	for loc := range n.locs {
		if !n.used[loc] {
			unused = append(unused, loc)
		}
	}
	if len(unused) > 0 {
		slices.Sort(unused)
		fmt.Fprintf(e.stderr, "conc: monitor: note: --not-atomic names no begin at %s\n", strings.Join(unused, ", "))
	}
}

// notAtomicSpec reads --not-atomic (nil without the flag): SPECs
// separated by commas, each a begin's LOC or line:N; a value @FILE reads
// them from FILE, one or more a line ('#' starts a comment).
func notAtomicSpec(flag setString, r *trace.Reader) (*notAtomic, error) {
	if !flag.set {
		return nil, nil
	}
	value := flag.value
	if name, ok := strings.CutPrefix(value, "@"); ok {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var specs []string
		for _, line := range strings.Split(string(data), "\n") {
			line, _, _ = strings.Cut(line, "#")
			specs = append(specs, line)
		}
		value = strings.Join(specs, ",")
	}
	n := &notAtomic{lines: map[int64]bool{}, locs: map[string]bool{}, used: map[string]bool{}, r: r}
	for _, spec := range strings.Split(value, ",") {
		spec = strings.TrimSpace(spec)
		if num, ok := strings.CutPrefix(spec, "line:"); ok {
			line, err := strconv.ParseInt(num, 10, 64)
			if err != nil || line < 1 {
				return nil, fmt.Errorf("want line:N with N a trace line (1 or more)%s", naming(spec, flag.value))
			}
			n.lines[line] = true
		} else if spec != "" {
			n.locs[spec] = true
		}
	}
	if len(n.lines)+len(n.locs) == 0 {
		return nil, fmt.Errorf("no SPEC: want LOC or line:N, separated by commas")
	}
	return n, nil
}

// naming names the bad spec when the value holds more than it.
func naming(spec, value string) string {
	if spec == value {
		return ""
	}
	return fmt.Sprintf(", not %q", spec)
}
