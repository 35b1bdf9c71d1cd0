package proj

import (
	"fmt"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/verify"
)

// Every witness predict answers with is checked by package verify first
// (docs/spec.md §5): the shortcuts' witnesses because they may not respect
// the synchronisation (a miss is no answer, and the search goes on), the
// engines' witnesses (the streaming profile check's and the lock-aware
// engine's, expanded to the full projection) because an engine can have a
// bug, which must never be shown as a violation (a WitnessError).

// WitnessError is an engine's witness that does not replay: an internal
// error, never an answer.
type WitnessError struct {
	Engine string
	Err    error // why, in verify's words
}

func (e *WitnessError) Error() string {
	return fmt.Sprintf("%s's witness does not replay: %v", e.Engine, e.Err)
}

func (e *WitnessError) Unwrap() error { return e.Err }

// Replays checks m's witness against the projection program it was read
// off (without its synchronisation under --ignore-sync): verify.Prefix, and
// what the prefixes cannot show, that a forked thread's events follow its
// fork (forksFirst; with synchronisation dropped there is no fork to follow).
func (s *Summary) Replays(m *Materialised) error {
	if err := verify.Prefix(m.Names, m.Witness, m.forkedBy, m.finished, s.Posts); err != nil {
		return err
	}
	if !m.dropSync && !s.ForksFirst(m.Witness) {
		return fmt.Errorf("a forked thread's event comes before its fork in the trace")
	}
	return nil
}

// ForksFirst checks what verify cannot see in the prefixes: a thread's
// first event in the run comes after its fork, wherever the fork is in the
// trace. The fork is the forking thread's fork of it (a trace forks a
// thread once); the run's steps are not counted as edges, since with lock
// edges a bare fork is three steps (begin, fork, end).
func (s *Summary) ForksFirst(w *model.Witness) bool {
	if len(s.Forker) == 0 { // every witness is replayed: most traces fork nothing
		return true
	}
	forker := make([]int32, len(s.Threads))
	waiting := make([]bool, len(s.Threads)) // forked, and its fork not yet in the run
	for u, f := range s.Forker {
		forker[u], waiting[u] = int32(f.Thread), true
	}
	for _, st := range w.Run {
		if waiting[st.Thread] {
			return false
		}
		if u := st.Ev.Target; st.Ev.Op == model.OpFork && waiting[u] && forker[u] == st.Thread {
			waiting[u] = false
		}
	}
	return true
}
