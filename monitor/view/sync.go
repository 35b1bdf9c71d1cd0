package view

import (
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// syncState is what LockEdges' arcs need of the synchronisation so far:
// per lock the node of its last release and the read-releases since, per
// thread the line of its fork, per message a helper node every post
// precedes and every wait follows, per token the givers not yet taken
// (first in, first out, docs/spec.md §3).
type syncState struct {
	lastRel  map[int32]src
	rrels    map[int32][]src
	forkLine map[int32]int64
	msg      map[int32]int32
	tokens   map[int32][]src
}

func newSyncState() syncState {
	return syncState{lastRel: map[int32]src{}, rrels: map[int32][]src{}, forkLine: map[int32]int64{},
		msg: map[int32]int32{}, tokens: map[int32][]src{}}
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
		b.messageArc(c, ev)
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

// messageArc puts a post before the message's helper node and a wait
// after it: every post precedes every wait, with arcs linear in their
// number.
func (b *builder) messageArc(c int32, ev *trace.Event) {
	h, ok := b.sync.msg[ev.Target]
	if !ok {
		h = b.newNode(-1, ev.Line)
		b.sync.msg[ev.Target] = h
	}
	if ev.Op == model.OpPost {
		b.arcs = append(b.arcs, arc{c, h, Message, ev.Target, ev.Line, 0})
	} else {
		b.arcs = append(b.arcs, arc{h, c, Message, ev.Target, 0, ev.Line})
	}
}
