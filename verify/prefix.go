package verify

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Prefix checks a witness whose run the caller read off straight-line
// threads (a trace's projections, docs/spec.md §3): thread t's events of the run
// are its first len(w.Paths[t]) edges, epsilon moves left out, so replaying
// the paths would only repeat how the run was made, and the threads'
// automata (tens of bytes an edge, for a witness of millions of events) need
// not exist: p supplies the names only. What the making does not guarantee
// is checked as Witness checks it: events and targets in range, lock
// validity, fork and join order, the cycle, and with lock edges that every
// lock, fork and join event lies in a transaction (a bare one written as
// begin, event, end at its position). forkedBy[u] is the thread
// that forks u in the threads' prefixes (-1 if none) and finished[u] reports
// that u's path runs to the end of its thread, as a join needs; posts[m]
// is how many posts of message m the threads have in all (docs/spec.md
// §3: a wait follows every one), nil when the program has no messages.
func Prefix(p *model.Program, w *model.Witness, forkedBy []int, finished []bool, posts []int) error {
	if p == nil || w == nil {
		return fmt.Errorf("verify: missing program or witness")
	}
	if n := len(p.Threads); len(forkedBy) != n || len(finished) != n || len(w.Paths) != n {
		return fmt.Errorf("verify: %d threads, but %d paths and fork and end information for %d and %d",
			n, len(w.Paths), len(forkedBy), len(finished))
	}
	if len(posts) != len(p.Msgs) {
		return fmt.Errorf("verify: %d messages, but post counts for %d", len(p.Msgs), len(posts))
	}
	c := &checker{p: p, w: w, forkedBy: forkedBy, final: make([]threadEnd, len(p.Threads)), posts: posts}
	for u, done := range finished { // a straight-line path ends in the state it counts
		c.final[u] = threadEnd{state: int32(len(w.Paths[u])), emptyStack: true, finished: done}
	}
	return c.run(c.scan, c.pathLengths, c.joins, c.cycle)
}

// pathLengths checks that every thread's path is long enough for its
// events of the run (each event is one move, but for the begin and end of
// a lock, fork or join event's unary transaction under lock edges).
func (c *checker) pathLengths() error {
	wrappers := c.unaryWrappers()
	for t, n := range c.events {
		if n -= wrappers[t]; len(c.w.Paths[t]) < n {
			return fmt.Errorf("thread %s's path has %d moves, but the run has %d of its events", c.p.Threads[t].Name, len(c.w.Paths[t]), n)
		}
	}
	return nil
}
