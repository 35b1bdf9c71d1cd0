package predict

import (
	"fmt"

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

// replays checks m's witness against the projection program it was read
// off (without its synchronisation under --ignore-sync): verify.Prefix, and
// what the prefixes cannot show, that a forked thread's events follow its
// fork (forksFirst; with synchronisation dropped there is no fork to follow).
func (s *summary) replays(m *materialised) error {
	if err := verify.Prefix(m.names, m.w, m.forkedBy, m.finished); err != nil {
		return err
	}
	if !m.dropSync && !s.forksFirst(m.w) {
		return fmt.Errorf("a forked thread's event comes before its fork in the trace")
	}
	return nil
}
