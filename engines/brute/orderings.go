package brute

import (
	"encoding/binary"

	"github.com/conc-dev/conc/model"
)

// orderings is the state of docs/spec.md §3's orderings in a
// configuration: per lock its read holders, per message the posts made and
// the posts the program has in all (a wait follows every one), per token
// the tokens given and not yet taken. A program without them (every
// .conc program) has empty tables: its checks pass and its configuration
// keys carry nothing more.
type orderings struct {
	readers []int32
	posted  []int32
	posts   []int32
	tokens  []int32
}

// newOrderings counts p's posts of each message: the orderings are a
// trace's, whose projections are straight lines, every edge taken once by
// a run to its end.
func newOrderings(p *model.Program) orderings {
	if !p.HasOrderings() {
		return orderings{}
	}
	o := orderings{readers: make([]int32, len(p.Locks)), posted: make([]int32, len(p.Msgs)),
		posts: make([]int32, len(p.Msgs)), tokens: make([]int32, len(p.Msgs))}
	for _, th := range p.Threads {
		for _, out := range th.Auto.Out {
			for _, e := range out {
				if e.Ev.Op == model.OpPost {
					o.posts[e.Ev.Target]++
				}
			}
		}
	}
	return o
}

// free reports that no thread read-holds lock l (a write acquire needs it).
func (o *orderings) free(l int32) bool { return len(o.readers) == 0 || o.readers[l] == 0 }

// allows reports whether an ordering event may happen now: a wait after
// every post of its message, a take of a token given and not yet taken.
func (o *orderings) allows(ev model.Event) bool {
	switch ev.Op {
	case model.OpWait:
		return o.posted[ev.Target] == o.posts[ev.Target]
	case model.OpTake:
		return o.tokens[ev.Target] > 0
	}
	return true
}

// apply does (do) or undoes (!do) an ordering event.
func (o *orderings) apply(ev model.Event, do bool) {
	d := int32(1)
	if !do {
		d = -1
	}
	switch ev.Op {
	case model.OpReadAcquire:
		o.readers[ev.Target] += d
	case model.OpReadRelease:
		o.readers[ev.Target] -= d
	case model.OpPost:
		o.posted[ev.Target] += d
	case model.OpGive:
		o.tokens[ev.Target] += d
	case model.OpTake:
		o.tokens[ev.Target] -= d
	}
}

// appendKey encodes the state: a configuration's key must tell apart what
// enables different moves (for straight lines it follows from the
// positions, but the key does not rely on that).
func (o *orderings) appendKey(b []byte) []byte {
	for _, xs := range [][]int32{o.readers, o.posted, o.tokens} {
		for _, x := range xs {
			b = binary.AppendUvarint(b, uint64(x))
		}
	}
	return b
}
