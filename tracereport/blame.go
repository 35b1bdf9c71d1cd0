package tracereport

import (
	"github.com/conc-dev/conc/model"
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
