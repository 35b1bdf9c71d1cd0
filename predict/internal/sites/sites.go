package sites

import (
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
	"github.com/conc-dev/conc/trace"
)

// Site is one event's part of a signature.
type Site struct {
	Op     model.Op
	Loc    int32 // -1: none, and Target names the event
	Target int32
}

// Of is ev's site.
func Of(ev *trace.Event) Site { return Site{Op: ev.Op, Loc: ev.Loc, Target: ev.Target} }

// OfLetter is the site of an access to letter l at code location loc.
func OfLetter(l profiles.Letter, loc int32) Site {
	op := model.OpRead
	if l.Write() {
		op = model.OpWrite
	}
	return Site{Op: op, Loc: loc, Target: int32(l >> 1)}
}

// key is what two sites are compared by: the location, or without one
// the target.
func (x Site) key() Site {
	if x.Loc >= 0 {
		x.Target = -1
	}
	return x
}

// Key is a group's signature as data: e1's site and e2's, compared by
// location (or, without one, by target).
type Key [2]Site

// KeyOf is the signature of the sites e1 and e2.
func KeyOf(e1, e2 Site) Key { return Key{e1.key(), e2.key()} }

// At reads the sites of the events at the given trace lines from the
// spool (for a witness that came with no pattern: predict's own answer).
func At(sp *proj.Spool, lines ...int64) (map[int64]Site, error) {
	want := map[int64]bool{}
	for _, l := range lines {
		want[l] = true
	}
	out := map[int64]Site{}
	r := sp.Reader()
	var ev trace.Event
	for len(out) < len(want) {
		if err := r.Next(&ev); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if want[ev.Line] {
			out[ev.Line] = Of(&ev)
		}
	}
	return out, nil
}

// Text spells a site as the monitor's signature does: "w@Foo.java:12",
// or without a location "w x" (its target).
func Text(s *proj.Summary, x Site, locs []string) string {
	op := trace.OpName[x.Op]
	if x.Loc >= 0 && int(x.Loc) < len(locs) {
		return op + "@" + locs[x.Loc]
	}
	var names []string
	switch {
	case x.Op.IsAccess():
		names = s.Vars
	case x.Op == model.OpAcquire || x.Op == model.OpRelease:
		names = s.Locks
	case x.Op == model.OpFork || x.Op == model.OpJoin:
		names = s.ThreadNames
	}
	if x.Target >= 0 && int(x.Target) < len(names) {
		return op + " " + names[x.Target]
	}
	return op
}
