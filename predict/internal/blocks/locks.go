package blocks

import (
	"fmt"
	"slices"

	"github.com/conc-dev/conc/predict/internal/proj"
)

// The lock sets of the block test, after the paper's held(e), held(e1,
// e2) and heldmid(e1, e2). Sets of locks are short sorted slices: an
// access rarely holds more than a few.

// locks is the set of locks held at an access.
func (a *Access) locks() []int32 {
	out := make([]int32, len(a.held))
	for i, h := range a.held {
		out[i] = h.lock
	}
	return out
}

// held12 is held(e1, e2): the locks held continuously from access a to
// access b of one transaction (held at both, by the same acquire).
func held12(a, b *Access) []int32 {
	var out []int32
	for _, h := range a.held {
		if slices.Contains(b.held, h) {
			out = append(out, h.lock)
		}
	}
	return out
}

// heldMid is heldmid(e1, e2): the locks of the sections that begin after
// a and end before b, other than those held at a or b.
func (ct *Content) heldMid(a, b *Access) []int32 {
	var out []int32
	for _, s := range ct.secs {
		if s.acq > a.Off && s.rel < b.Off && !holds(a, s.lock) && !holds(b, s.lock) && !slices.Contains(out, s.lock) {
			out = append(out, s.lock)
		}
	}
	return out
}

// span is every lock held at some point from access a to access b of one
// transaction: held(a) ∪ held(b) ∪ heldmid(a, b). Another thread that
// runs from a to b while this one holds a lock throughout must hold none
// of them.
func (ct *Content) span(a, b *Access) []int32 {
	out := a.locks()
	for _, l := range append(b.locks(), ct.heldMid(a, b)...) {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

func holds(a *Access, l int32) bool {
	return slices.ContainsFunc(a.held, func(h lockAt) bool { return h.lock == l })
}

// disjoint reports that two sets of locks share none.
func disjoint(x, y []int32) bool {
	for _, l := range x {
		if slices.Contains(y, l) {
			return false
		}
	}
	return true
}

// inversion is a potential deadlock in words: two threads that take two
// shared locks in opposite orders, each while holding the other (the
// goodlock test for two threads and two locks, without gate locks: it
// names a cause for an unknown answer, it decides nothing).
func (ix *Index) inversion(s *proj.Summary) string {
	keys := make([][2]int32, 0, len(ix.order))
	for k := range ix.order {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]int32) int { return int(ix.order[x].line - ix.order[y].line) })
	for _, k := range keys {
		a := ix.order[k]
		b, ok := ix.order[[2]int32{k[1], k[0]}]
		if ok && a.thread != b.thread {
			return fmt.Sprintf("%s takes %s holding %s at line %d, %s takes %s holding %s at line %d",
				s.ThreadNames[a.thread], s.Locks[k[1]], s.Locks[k[0]], a.line,
				s.ThreadNames[b.thread], s.Locks[k[0]], s.Locks[k[1]], b.line)
		}
	}
	return ""
}
