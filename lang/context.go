package lang

import (
	"slices"
	"strconv"
	"strings"
)

// A context is what the paper's automata must know at every program point
// and what docs/spec.md §2 requires to be independent of the path: whether the point
// is inside a transaction, and which locks the thread holds. Contexts are
// interned per thread, so a state stores one int32 and equal contexts share
// one Held slice in the final automaton.
type context struct {
	inTxn bool
	held  []int32 // sorted
}

type ctxID int32

// contexts interns the contexts of one thread and caches their successors.
type contexts struct {
	list []context
	ids  map[string]ctxID
	next map[ctxStep]ctxID
}

// ctxStep is a lock event applied to a context.
type ctxStep struct {
	from    ctxID
	acquire bool
	lock    int32
}

func newContexts() *contexts {
	return &contexts{ids: map[string]ctxID{}, next: map[ctxStep]ctxID{}}
}

func (cs *contexts) intern(c context) ctxID {
	var b strings.Builder
	if c.inTxn {
		b.WriteByte('T')
	}
	for _, l := range c.held {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(int(l)))
	}
	key := b.String()
	if id, ok := cs.ids[key]; ok {
		return id
	}
	id := ctxID(len(cs.list))
	cs.ids[key] = id
	cs.list = append(cs.list, c)
	return id
}

func (cs *contexts) get(id ctxID) context { return cs.list[id] }

// withTxn is id with the transaction status set to inTxn.
func (cs *contexts) withTxn(id ctxID, inTxn bool) ctxID {
	c := cs.list[id]
	if c.inTxn == inTxn {
		return id
	}
	return cs.intern(context{inTxn: inTxn, held: c.held})
}

// holds reports whether lock l is held in id.
func (cs *contexts) holds(id ctxID, l int32) bool {
	_, found := slices.BinarySearch(cs.list[id].held, l)
	return found
}

// withLock is id after acquiring (or releasing) lock l.
func (cs *contexts) withLock(id ctxID, l int32, acquire bool) ctxID {
	step := ctxStep{from: id, acquire: acquire, lock: l}
	if to, ok := cs.next[step]; ok {
		return to
	}
	c := cs.list[id]
	held := slices.Clone(c.held)
	i, found := slices.BinarySearch(held, l)
	switch {
	case acquire && !found:
		held = slices.Insert(held, i, l)
	case !acquire && found:
		held = slices.Delete(held, i, i+1)
	}
	to := cs.intern(context{inTxn: c.inTxn, held: held})
	cs.next[step] = to
	return to
}

// describe renders a context for error messages, naming locks:
// "inside a transaction holding {l, m}".
func (cs *contexts) describe(id ctxID, locks []string) string {
	c := cs.list[id]
	var b strings.Builder
	if c.inTxn {
		b.WriteString("inside a transaction holding {")
	} else {
		b.WriteString("outside transactions holding {")
	}
	for i, l := range c.held {
		if i > 0 {
			b.WriteString(", ")
		}
		if l >= 0 && int(l) < len(locks) {
			b.WriteString(locks[l])
		}
	}
	b.WriteString("}")
	return b.String()
}
