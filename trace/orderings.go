package trace

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// readHeld is a lock's owner while threads read-hold it and none holds it
// for writing: no thread id, so that the fast tiers' acq and rel (which
// take a lock only from owner -1, and give it back only to its owner)
// leave every line on a read-held lock to the general path.
const readHeld = -2

// heldBy words why op(L) cannot take lock l: its writer, or its readers.
func (r *Reader) heldBy(l int32, op string, target []byte) string {
	if o := r.owner[l]; o >= 0 {
		return fmt.Sprintf("%s(%s) of a lock held by thread %s", op, target, r.threads.Name(o))
	}
	for k := range r.rheld {
		if k[1] == l {
			return fmt.Sprintf("%s(%s) of a lock read-held by thread %s", op, target, r.threads.Name(k[0]))
		}
	}
	return fmt.Sprintf("%s(%s) of a lock read-held by %d threads", op, target, r.readers[l])
}

// readAcquire takes lock L for reading: shared with other readers, not
// with a writer (a thread holding L for writing cannot read-acquire it
// either: that would deadlock). A read-acquire of a lock the thread
// already read-holds is re-entrant: dropped with its matching rrel.
func (r *Reader) readAcquire(ev *Event, target []byte, k nameKey) (string, bool) {
	l := r.lock(target, k)
	ev.Target = l
	if o := r.owner[l]; o != -1 && o != readHeld {
		return r.impossible(SkipAcquire, r.heldBy(l, "racq", target)), false
	}
	if r.rheld == nil {
		r.rheld = map[[2]int32]int32{}
	}
	key := [2]int32{ev.Thread, l}
	r.rheld[key]++
	if r.rheld[key] > 1 {
		r.stats.Reentrant++
		return "", false
	}
	r.readers[l]++
	r.owner[l] = readHeld
	return "", true
}

// readRelease gives back a read hold of lock L; the lock is free once its
// last reader is gone.
func (r *Reader) readRelease(ev *Event, target []byte, k nameKey) (string, bool) {
	l := r.lock(target, k)
	ev.Target = l
	key := [2]int32{ev.Thread, l}
	switch r.rheld[key] {
	case 0:
		return r.impossible(SkipRelease, fmt.Sprintf("rrel(%s) of a lock thread %s does not read-hold", target, r.threads.Name(ev.Thread))), false
	case 1:
		delete(r.rheld, key)
	default:
		r.rheld[key]--
		return "", false
	}
	if r.readers[l]--; r.readers[l] == 0 {
		r.owner[l] = -1
	}
	return "", true
}

// message interns a post's or wait's message and checks docs/spec.md §3's
// rule: every post of a message precedes every wait for it, so a post
// after a wait is one no execution produced.
func (r *Reader) message(ev *Event, target []byte, k nameKey) (string, bool) {
	m := r.msgs.internKey(target, k)
	ev.Target = m
	for len(r.waited) < r.msgs.Len() {
		r.waited = append(r.waited, 0)
	}
	switch {
	case ev.Op == model.OpWait && r.waited[m] == 0:
		r.waited[m] = r.stats.Lines
	case ev.Op == model.OpPost && r.waited[m] != 0:
		return r.impossible(SkipPost, fmt.Sprintf("post(%s) after a wait for it at line %d", target, r.waited[m])), false
	}
	return "", true
}

// token interns a give's or take's token and checks docs/spec.md §3's
// rule: a take needs a token given and not yet taken.
func (r *Reader) token(ev *Event, target []byte, k nameKey) (string, bool) {
	s := r.msgs.internKey(target, k)
	ev.Target = s
	for len(r.tokens) < r.msgs.Len() {
		r.tokens = append(r.tokens, 0)
	}
	if ev.Op == model.OpGive {
		r.tokens[s]++
		return "", true
	}
	if r.tokens[s] == 0 {
		return r.impossible(SkipTake, fmt.Sprintf("take(%s) of a token none gave", target)), false
	}
	r.tokens[s]--
	return "", true
}
