package predict

import (
	"testing"

	"github.com/conc-dev/conc/engines"
)

// Some of predict's tests check predict --all on the same traces as
// predict. Package predict/all imports predict, so these tests reach it
// through hooks that findall_external_test.go (package predict_test, in
// the same test binary) installs with export_test.go's SetAllHooks.

// allAnswer is what predict's tests read of all.Find's answer.
type allAnswer struct {
	Result engines.Result
	Groups []allGroup
	// Witness is all.Outcome.Witness; Source is group k's finder once its
	// witness is built; Dropped is all.Outcome.Dropped.
	Witness func(k int) (*Outcome, error)
	Source  func(k int) string
	Dropped func() int
}

// allGroup is what the tests read of an all.Group.
type allGroup struct {
	Signature string
	First     int64
}

var (
	// runAll is all.Find on an STD text (the spool closed when the test
	// ends).
	runAll func(t testing.TB, src string, o Options) *allAnswer
	// requireScheduleExact: the witness's schedule (all.ScheduleOf)
	// rebuilds the run --witness-out writes, event by event.
	requireScheduleExact func(t *testing.T, src string, out *Outcome, dropSync bool)
)

// allString runs predict --all on an STD text.
func allString(t testing.TB, src string, o Options) *allAnswer { return runAll(t, src, o) }
