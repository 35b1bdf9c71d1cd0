package trace

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// validOps says what a line's second field may be, for a bad one.
const validOps = "OP, the second field of THREAD|OP|LOC, is one of r(V) w(V) acq(L) rel(L) fork(T) join(T) begin end"

// parse scans one line THREAD|OP|LOC into ev and normalises it. It returns
// a non-empty message for a bad line, and emit=false for a line that yields
// no event (blank, an inner begin/end, a re-entrant acq/rel).
func (r *Reader) parse(line []byte, ev *Event) (msg string, emit bool) {
	bar := indexBar(line)
	if bar < 0 {
		if blank(line) {
			return "", false
		}
		return fmt.Sprintf("malformed line %q: want THREAD|OP|LOC", clip(line)), false
	}
	if bar == 0 {
		return "missing thread", false
	}
	op, loc := line[bar+1:], []byte(nil)
	if i := indexBar(op); i >= 0 {
		op, loc = op[:i], op[i+1:]
	}
	kind, target, ok := parseOp(op)
	switch {
	case !ok && string(op) == "cut" && string(line[:bar]) == "*":
		return r.impossible(SkipCut, fmt.Sprintf("the trace was cut: %s (docs/spec.md §3); --lenient reads the events before this line", clip(loc))), false
	case !ok:
		return fmt.Sprintf("malformed op %q in %q: %s", clip(op), clip(line), validOps), false
	case kind.IsExtension() && !r.opts.Orderings:
		return fmt.Sprintf("ordering op %q in %q: this command does not read the ordering extension (docs/spec.md §3)", clip(op), clip(line)), false
	}
	if !validLoc(loc) {
		return fmt.Sprintf("malformed location %q: want THREAD|OP|LOC, LOC without '|' or control characters", clip(loc)), false
	}
	ev.Thread = r.thread(line[:bar])
	ev.Op = kind
	ev.Loc = -1
	if len(loc) > 0 {
		ev.Loc = r.locs.intern(loc)
	}
	return r.normalise(ev, target, keyOf(target))
}

// indexBar is bytes.IndexByte(b, '|') for the short fields of a line,
// where a plain loop beats the vectorised search's setup.
func indexBar(b []byte) int {
	for i, c := range b {
		if c == '|' {
			return i
		}
	}
	return -1
}

// parseOp recognises r(V) w(V) acq(L) rel(L) fork(U) join(U) begin end.
func parseOp(op []byte) (model.Op, []byte, bool) {
	n := len(op)
	switch {
	case n < 3:
		return 0, nil, false
	case op[n-1] != ')':
		return parseBare(op)
	}
	var kind model.Op
	var arg []byte
	// One switch on the opcode's first bytes, in place of comparing
	// against each opcode in turn; the same strings are accepted.
	switch {
	case op[1] == '(' && (op[0] == 'r' || op[0] == 'w'):
		kind, arg = model.OpRead, op[2:n-1]
		if op[0] == 'w' {
			kind = model.OpWrite
		}
	case n > 4 && string(op[:4]) == "acq(":
		kind, arg = model.OpAcquire, op[4:n-1]
	case n > 4 && string(op[:4]) == "rel(":
		kind, arg = model.OpRelease, op[4:n-1]
	case n > 5 && string(op[:5]) == "fork(":
		kind, arg = model.OpFork, op[5:n-1]
	case n > 5 && string(op[:5]) == "join(":
		kind, arg = model.OpJoin, op[5:n-1]
	default:
		return parseOrdering(op)
	}
	return kind, arg, len(arg) > 0
}

// parseOrdering recognises the extension's racq(L) rrel(L) post(M)
// wait(M) give(S) take(S) (docs/spec.md §3), whose op ends in ')'.
func parseOrdering(op []byte) (model.Op, []byte, bool) {
	n := len(op)
	if n <= 6 || op[4] != '(' {
		return 0, nil, false
	}
	var kind model.Op
	switch string(op[:4]) {
	case "racq":
		kind = model.OpReadAcquire
	case "rrel":
		kind = model.OpReadRelease
	case "post":
		kind = model.OpPost
	case "wait":
		kind = model.OpWait
	case "give":
		kind = model.OpGive
	case "take":
		kind = model.OpTake
	default:
		return 0, nil, false
	}
	return kind, op[5 : n-1], true
}

// parseBare recognises the operations without an argument, begin and end.
func parseBare(op []byte) (model.Op, []byte, bool) {
	switch string(op) {
	case "begin":
		return model.OpBegin, nil, true
	case "end":
		return model.OpEnd, nil, true
	}
	return 0, nil, false
}

// thread interns a thread name. Traces have few threads with short names:
// those are kept packed in a word each in a small direct-mapped cache, so a
// known one costs a multiply and one compare, not a hash table probe.
func (r *Reader) thread(b []byte) int32 { return r.threadWord(b, loadShort(b)) }

// threadWord is thread for a name whose packed word w (loadShort(b) when
// the name is short) the scanner already has.
func (r *Reader) threadWord(b []byte, w uint64) int32 {
	if len(b) > 8 {
		id := r.threads.intern(b)
		r.grow()
		return id
	}
	k := &r.threadKeys[threadSlot(w, len(b))]
	if k.word == w && int(k.n) == len(b)+1 {
		return k.id
	}
	id := r.threads.intern(b)
	*k = threadKey{word: w, n: int32(len(b) + 1), id: id}
	r.grow()
	k.setLive(r.life[id])
	return id
}

// threadSlot is the cache slot of a short thread name packed in w.
func threadSlot(w uint64, n int) uint64 {
	return ((w | uint64(n)<<56) * 0x9E3779B97F4A7C15) >> (64 - threadCacheBits)
}

// threadCacheBits: Reader.thread's cache has 1<<threadCacheBits slots.
const threadCacheBits = 5

type threadKey struct {
	word  uint64 // the name's bytes (loadShort)
	n, id int32  // its length+1 (0: empty) and id
	// live is what quickLines compares a line's thread with: for a name of
	// one to seven bytes whose thread has started and is not joined, its
	// word, length<<56 and liveMark; else 0, which no line matches.
	live uint64
}

const liveMark = 1 << 63

// setLive sets k.live from its thread's life bits.
func (k *threadKey) setLive(life uint8) {
	k.live = 0
	if n := k.n - 1; life == lifeStarted && n >= 1 && n <= 7 {
		k.live = k.word | uint64(n)<<56 | liveMark
	}
}

// lifeChanged keeps the cache's live marks equal to the threads' life.
func (r *Reader) lifeChanged(t int32) {
	for i := range r.threadKeys {
		if k := &r.threadKeys[i]; k.n != 0 && k.id == t {
			k.setLive(r.life[t])
		}
	}
}

// grow keeps the per-thread state as long as the thread table.
func (r *Reader) grow() {
	for len(r.depth) < r.threads.Len() {
		r.depth = append(r.depth, 0)
		r.life = append(r.life, 0)
		r.forkedAt = append(r.forkedAt, 0)
	}
}

// Thread life bits: docs/spec.md §1's fork and join order a thread's events, so a
// fork after the child has moved, or an event after its join, is bad input.
const (
	lifeStarted uint8 = 1 << iota
	lifeJoined
)

// forkJoin interns the child of a fork or join and checks docs/spec.md
// §3's order: a thread is forked at most once, before its first event and
// before any join of it, and joined after its last event. One fork makes
// "the thread's fork" well defined for every reader of the events (the
// projection program's fork order, the monitor's fork edge).
func (r *Reader) forkJoin(ev *Event, target []byte, k nameKey) string {
	u := r.threads.internKey(target, k)
	r.grow()
	ev.Target = u
	if u == ev.Thread {
		return r.impossible(SkipForkJoin, fmt.Sprintf("thread %s cannot %s itself", target, ev.Op))
	}
	if ev.Op == model.OpJoin {
		r.life[u] |= lifeJoined
		r.lifeChanged(u)
		return ""
	}
	switch {
	case r.life[u]&lifeStarted != 0:
		return r.impossible(SkipForkJoin, fmt.Sprintf("fork(%s) after thread %s has started", target, target))
	case r.life[u]&lifeJoined != 0:
		return r.impossible(SkipForkJoin, fmt.Sprintf("fork(%s) after thread %s's join", target, target))
	case r.forkedAt[u] != 0:
		return r.impossible(SkipForkJoin, fmt.Sprintf("fork(%s) of a thread already forked at line %d", target, r.forkedAt[u]))
	}
	r.forkedAt[u] = r.stats.Lines
	return ""
}

// normalise interns the target and applies RAPID's rules: only outermost
// begin/end pairs are kept, and a re-entrant acq is dropped with its
// matching rel. Lock misuse that no execution can produce is an error.
func (r *Reader) normalise(ev *Event, target []byte, k nameKey) (string, bool) {
	t := ev.Thread
	ev.Target = -1
	if r.life[t]&lifeJoined != 0 {
		return r.impossible(SkipAfterJoin, fmt.Sprintf("event of thread %s after its join", r.threads.Name(t))), false
	}
	if r.life[t]&lifeStarted == 0 {
		r.life[t] |= lifeStarted
		r.lifeChanged(t)
	}
	switch ev.Op {
	case model.OpBegin:
		return r.beginTxn(t)
	case model.OpEnd:
		return r.endTxn(t)
	case model.OpRead, model.OpWrite:
		ev.Target = r.vars.internKey(target, k)
	case model.OpFork, model.OpJoin:
		if msg := r.forkJoin(ev, target, k); msg != "" {
			return msg, false
		}
	case model.OpAcquire:
		return r.acquire(ev, target, k)
	case model.OpRelease:
		return r.release(ev, target, k)
	case model.OpReadAcquire:
		return r.readAcquire(ev, target, k)
	case model.OpReadRelease:
		return r.readRelease(ev, target, k)
	case model.OpPost, model.OpWait:
		return r.message(ev, target, k)
	case model.OpGive, model.OpTake:
		return r.token(ev, target, k)
	}
	return "", true
}

// beginTxn keeps only a thread's outermost begin (RAPID's rule).
func (r *Reader) beginTxn(t int32) (string, bool) {
	r.depth[t]++
	if r.depth[t] > 1 {
		r.stats.Nested++
		return "", false
	}
	return "", true
}

// endTxn keeps only the end that closes a thread's outermost begin.
func (r *Reader) endTxn(t int32) (string, bool) {
	if r.depth[t] == 0 {
		return r.impossible(SkipEnd, "end without begin"), false
	}
	r.depth[t]--
	return "", r.depth[t] == 0
}

func (r *Reader) lock(target []byte, k nameKey) int32 {
	l := r.locks.internKey(target, k)
	for len(r.owner) < r.locks.Len() {
		r.owner = append(r.owner, -1)
		r.count = append(r.count, 0)
		r.readers = append(r.readers, 0)
	}
	return l
}

func (r *Reader) acquire(ev *Event, target []byte, k nameKey) (string, bool) {
	l := r.lock(target, k)
	ev.Target = l
	switch r.owner[l] {
	case ev.Thread:
		r.count[l]++
		r.stats.Reentrant++
		return "", false
	case -1:
		r.owner[l], r.count[l] = ev.Thread, 1
		return "", true
	}
	return r.impossible(SkipAcquire, r.heldBy(l, "acq", target)), false
}

func (r *Reader) release(ev *Event, target []byte, k nameKey) (string, bool) {
	l := r.lock(target, k)
	ev.Target = l
	if r.owner[l] != ev.Thread {
		return r.impossible(SkipRelease, fmt.Sprintf("rel(%s) of a lock thread %s does not hold", target, r.threads.Name(ev.Thread))), false
	}
	r.count[l]--
	if r.count[l] > 0 {
		return "", false
	}
	r.owner[l] = -1
	return "", true
}

// validLoc is docs/spec.md §3's rule for a location: any bytes but '|'
// (a line has three fields) and control characters other than a tab
// (which no source position holds; a stray '\0' or escape sequence is
// damage, not a place in the code).
func validLoc(loc []byte) bool {
	for _, c := range loc {
		if c == '|' || c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// clip shortens what an error message quotes.
func clip(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}
