package verify

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// syncState is what the scan (scan.go) knows of locks, forks and joins
// after a prefix of the run.
type syncState struct {
	c        *checker
	holder   []int32 // per lock: the thread that holds it, or -1
	forked   []bool  // per thread: its fork has come
	joinedAt []int   // per thread: the run index of its join, or -1
	// held[t]: t may not move, for it is not forked yet or joined already.
	held []bool
	// The ordering extension (docs/spec.md §3): per lock how many threads
	// read-hold it and which; per message its posts in the run so far.
	readers []int32
	reading map[[2]int32]bool
	posted  []int
	tokens  []int // per token: given and not yet taken
}

func newSyncState(c *checker) *syncState {
	o := &syncState{c: c, holder: make([]int32, len(c.p.Locks)), forked: make([]bool, len(c.p.Threads)),
		joinedAt: make([]int, len(c.p.Threads)), held: make([]bool, len(c.p.Threads)),
		readers: make([]int32, len(c.p.Locks)), posted: make([]int, len(c.p.Msgs)), tokens: make([]int, len(c.p.Msgs))}
	for l := range o.holder {
		o.holder[l] = -1
	}
	for t := range o.joinedAt {
		o.joinedAt[t], o.held[t] = -1, c.forkedBy[t] >= 0
	}
	return o
}

// lock checks lock validity (docs/spec.md §1) at run event i: a lock is held
// by at most one thread, only its holder releases it, and a thread never
// acquires a lock it holds.
func (o *syncState) lock(i int) error {
	s := &o.c.w.Run[i]
	l := s.Ev.Target
	switch s.Ev.Op {
	case model.OpAcquire:
		switch h := o.holder[l]; {
		case h == s.Thread:
			return fmt.Errorf("%s acquires a lock its thread already holds", o.c.describe(i))
		case h >= 0:
			return fmt.Errorf("%s acquires a lock held by %s", o.c.describe(i), o.c.p.Threads[h].Name)
		case o.readers[l] > 0:
			return orderingErrorf("%s acquires a lock that %d threads read-hold", o.c.describe(i), o.readers[l])
		}
		o.holder[l] = s.Thread
	case model.OpReadAcquire, model.OpReadRelease:
		return o.readLock(i, s, l)
	case model.OpRelease:
		if o.holder[l] != s.Thread {
			return fmt.Errorf("%s releases a lock its thread does not hold", o.c.describe(i))
		}
		o.holder[l] = -1
	}
	return nil
}

// OrderingError is a run that breaks an ordering of docs/spec.md §3's
// extension (a read lock's or a message's), which a search that does not
// honour the orderings can propose: its caller may treat it as no answer,
// unlike a broken lock, fork or join.
type OrderingError struct{ msg string }

func (e *OrderingError) Error() string { return e.msg }

// orderingErrorf is an OrderingError in fmt.Sprintf's words.
func orderingErrorf(format string, args ...any) error {
	return &OrderingError{fmt.Sprintf(format, args...)}
}

// readLock checks a read-acquire or read-release at run event i, s, of
// lock l (docs/spec.md §3): read holds are shared, but not with a write
// hold, and a thread read-holds a lock once at a time.
func (o *syncState) readLock(i int, s *model.Step, l int32) error {
	key := [2]int32{s.Thread, l}
	if s.Ev.Op == model.OpReadRelease {
		if !o.reading[key] {
			return orderingErrorf("%s read-releases a lock its thread does not read-hold", o.c.describe(i))
		}
		delete(o.reading, key)
		o.readers[l]--
		return nil
	}
	switch h := o.holder[l]; {
	case h >= 0:
		return orderingErrorf("%s read-acquires a lock held by %s", o.c.describe(i), o.c.p.Threads[h].Name)
	case o.reading[key]:
		return orderingErrorf("%s read-acquires a lock its thread already read-holds", o.c.describe(i))
	}
	if o.reading == nil {
		o.reading = map[[2]int32]bool{}
	}
	o.reading[key] = true
	o.readers[l]++
	return nil
}

// message checks a post or wait at run event i (docs/spec.md §3): every
// post of a message comes before every wait for it, so a wait comes
// after all posts[m] of them (the program's, not only the run's).
func (o *syncState) message(i int, posts []int) error {
	s := &o.c.w.Run[i]
	m := s.Ev.Target
	switch {
	case s.Ev.Op == model.OpPost && o.posted[m] < 0:
		return orderingErrorf("%s posts a message after a wait for it", o.c.describe(i))
	case s.Ev.Op == model.OpPost:
		o.posted[m]++
	case o.posted[m] >= 0 && o.posted[m] < posts[m]:
		return orderingErrorf("%s waits for a message of which %d of %d posts came before it", o.c.describe(i), o.posted[m], posts[m])
	default:
		o.posted[m] = -1 // waited for: no post may follow
	}
	return nil
}

// token checks a give or take at run event i (docs/spec.md §3): a take
// needs a token given and not yet taken.
func (o *syncState) token(i int) error {
	s := &o.c.w.Run[i]
	if s.Ev.Op == model.OpGive {
		o.tokens[s.Ev.Target]++
		return nil
	}
	if o.tokens[s.Ev.Target] == 0 {
		return orderingErrorf("%s takes a token none gave", o.c.describe(i))
	}
	o.tokens[s.Ev.Target]--
	return nil
}

// forkJoin checks fork and join order at run event i: a thread that some
// thread of the program forks makes no event before its fork (and is forked
// once); a join of U comes after U is forked, and no event of U follows it
// (that U's path ends finished is checked after the replay: joins).
func (o *syncState) forkJoin(i int) error {
	s := &o.c.w.Run[i]
	t, u := s.Thread, s.Ev.Target
	switch {
	case o.joinedAt[t] >= 0:
		return fmt.Errorf("%s comes after %s joined its thread", o.c.describe(i), o.c.describe(o.joinedAt[t]))
	case o.c.forkedBy[t] >= 0 && !o.forked[t]:
		return fmt.Errorf("%s comes before %s is forked", o.c.describe(i), o.c.p.Threads[t].Name)
	}
	switch s.Ev.Op {
	case model.OpFork:
		if o.forked[u] {
			return fmt.Errorf("%s forks a thread that was already forked", o.c.describe(i))
		}
		o.forked[u], o.held[u] = true, false
	case model.OpJoin:
		switch {
		case u == t:
			return fmt.Errorf("%s joins its own thread", o.c.describe(i))
		case o.c.forkedBy[u] >= 0 && !o.forked[u]:
			return fmt.Errorf("%s joins a thread that was not forked", o.c.describe(i))
		}
		o.joinedAt[u], o.held[u] = i, true
		o.c.joined = append(o.c.joined, joinAt{i, u})
	}
	return nil
}

// joinAt is the join of thread u at run index i.
type joinAt struct {
	i int
	u int32
}

// joins checks, once the paths' ends are known, that every thread joined
// ends finished (a terminal state, the empty stack).
func (c *checker) joins() error {
	for _, j := range c.joined {
		if end := c.final[j.u]; !end.finished {
			return fmt.Errorf("%s joins %s, whose path does not end finished (state %d, empty stack %v)",
				c.describe(j.i), c.p.Threads[j.u].Name, end.state, end.emptyStack)
		}
	}
	return nil
}
