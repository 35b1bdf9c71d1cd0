package verify

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// locks checks lock validity of the whole run (docs/spec.md §1): a lock is held by
// at most one thread, only its holder releases it, and a thread never
// acquires a lock it holds.
func (c *checker) locks() error {
	holder := make([]int32, len(c.p.Locks))
	for l := range holder {
		holder[l] = -1
	}
	for i, s := range c.w.Run {
		l := s.Ev.Target
		switch s.Ev.Op {
		case model.OpAcquire:
			switch h := holder[l]; {
			case h == s.Thread:
				return fmt.Errorf("%s acquires a lock its thread already holds", c.describe(i))
			case h >= 0:
				return fmt.Errorf("%s acquires a lock held by %s", c.describe(i), c.p.Threads[h].Name)
			}
			holder[l] = s.Thread
		case model.OpRelease:
			if holder[l] != s.Thread {
				return fmt.Errorf("%s releases a lock its thread does not hold", c.describe(i))
			}
			holder[l] = -1
		}
	}
	return nil
}

// forkJoin checks fork and join order: a thread that some thread of the
// program forks makes no event before its fork (and is forked once); a join
// of U comes after U is forked and after every event of U, and U's path ends
// finished (terminal state, empty stack).
func (c *checker) forkJoin() error {
	forkable := c.forkedBy
	forked := make([]bool, len(c.p.Threads))
	for i, s := range c.w.Run {
		u := s.Ev.Target
		if forkable[s.Thread] >= 0 && !forked[s.Thread] {
			return fmt.Errorf("%s comes before %s is forked", c.describe(i), c.p.Threads[s.Thread].Name)
		}
		switch s.Ev.Op {
		case model.OpFork:
			if forked[u] {
				return fmt.Errorf("%s forks a thread that was already forked", c.describe(i))
			}
			forked[u] = true
		case model.OpJoin:
			if err := c.join(i, s.Thread, u, forkable[u] < 0 || forked[u]); err != nil {
				return err
			}
		}
	}
	return nil
}

// join checks the join of u by thread t at run index i.
func (c *checker) join(i int, t, u int32, started bool) error {
	switch {
	case u == t:
		return fmt.Errorf("%s joins its own thread", c.describe(i))
	case !started:
		return fmt.Errorf("%s joins a thread that was not forked", c.describe(i))
	}
	for j := i + 1; j < len(c.w.Run); j++ {
		if c.w.Run[j].Thread == u {
			return fmt.Errorf("%s comes after %s joined its thread", c.describe(j), c.describe(i))
		}
	}
	end := c.final[u]
	if !end.finished {
		return fmt.Errorf("%s joins %s, whose path does not end finished (state %d, empty stack %v)",
			c.describe(i), c.p.Threads[u].Name, end.state, end.emptyStack)
	}
	return nil
}
