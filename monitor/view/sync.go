package view

import (
	"maps"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// syncState is what LockEdges' arcs need of the synchronisation so far:
// per lock the node of its last release and the read-releases since, per
// thread the line of its fork, per message its posts and waits, per token the givers not yet taken
// (first in, first out, docs/spec.md §3).
type syncState struct {
	lastRel  map[int32]src
	rrels    map[int32][]src
	forkLine map[int32]int64
	msgs     map[int32]*msgState
	tokens   map[int32][]src
}

// msgState are a message's posts and waits, each node once.
type msgState struct{ posts, waits []src }

func newSyncState() syncState {
	return syncState{lastRel: map[int32]src{}, rrels: map[int32][]src{}, forkLine: map[int32]int64{},
		msgs: map[int32]*msgState{}, tokens: map[int32][]src{}}
}

// syncEvent adds the arcs of a lock, fork, join or ordering event of node
// c (LockEdges).
func (b *builder) syncEvent(c int32, ev *trace.Event) {
	s, t, line := &b.sync, ev.Target, ev.Line
	switch ev.Op {
	case model.OpAcquire:
		b.syncArc(s.lastRel[t], c, LockPass, t, line)
		for _, r := range s.rrels[t] {
			b.syncArc(r, c, LockPass, t, line)
		}
		delete(s.rrels, t)
	case model.OpReadAcquire:
		b.syncArc(s.lastRel[t], c, LockPass, t, line)
	case model.OpRelease:
		s.lastRel[t] = src{c, line}
	case model.OpReadRelease:
		s.rrels[t] = append(s.rrels[t], src{c, line})
	case model.OpFork:
		b.thread(t).forkedBy = c
		s.forkLine[t] = line
	case model.OpJoin:
		if last := b.thread(t).last; last >= 0 {
			b.arcs = append(b.arcs, arc{last, c, Join, t, b.nodes[last].begin, line})
		}
	case model.OpPost, model.OpWait:
		b.message(c, ev)
	case model.OpGive:
		s.tokens[t] = append(s.tokens[t], src{c, line})
	case model.OpTake:
		if q := s.tokens[t]; len(q) > 0 {
			b.syncArc(q[0], c, Token, t, line)
			s.tokens[t] = q[1:]
		}
	}
}

// syncArc adds from's precedence over c, from's event being at from.line
// and c's at line, unless from is no node or c itself.
func (b *builder) syncArc(from src, c int32, kind FactKind, x int32, line int64) {
	if from.line == 0 || from.node == c {
		return
	}
	b.arcs = append(b.arcs, arc{from.node, c, kind, x, from.line, line})
}

// message notes a post or wait of node c (each node once in a row).
func (b *builder) message(c int32, ev *trace.Event) {
	m := b.sync.msgs[ev.Target]
	if m == nil {
		m = &msgState{}
		b.sync.msgs[ev.Target] = m
	}
	list := &m.waits
	if ev.Op == model.OpPost {
		list = &m.posts
	}
	if n := len(*list); n == 0 || (*list)[n-1].node != c {
		*list = append(*list, src{c, ev.Line})
	}
}

// messageArcs puts every post of each message before each of its waits
// in another transaction, once the trace is read, with a helper node
// between the posters and the waiters. A transaction that both posts and
// waits gets arcs of its own (through the helper it would precede
// itself); two such already precede each other, so two are enough.
func (b *builder) messageArcs() {
	for _, id := range slices.Sorted(maps.Keys(b.sync.msgs)) {
		m := b.sync.msgs[id]
		posted := map[int32]src{}
		for _, p := range m.posts {
			posted[p.node] = p
		}
		var both []src
		h := b.newNode(-1, 0)
		for _, w := range m.waits {
			if p, ok := posted[w.node]; ok {
				both = append(both, p, w)
				continue
			}
			b.arcs = append(b.arcs, arc{h, w.node, Message, id, 0, w.line})
		}
		for _, p := range m.posts {
			b.arcs = append(b.arcs, arc{p.node, h, Message, id, p.line, 0})
		}
		for i := 0; i < len(both) && i < 4; i += 2 {
			for _, w := range m.waits {
				b.syncArc(both[i], w.node, Message, id, w.line)
			}
			for _, p := range m.posts {
				b.syncArc(p, both[i].node, Message, id, both[i+1].line)
			}
		}
	}
}
