package browsertest

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// ending records how noBrowser ended a test, without ending this one.
type ending struct {
	testing.TB
	failed, skipped bool
}

func (e *ending) Helper()               {}
func (e *ending) Fatal(...any)          { e.failed = true }
func (e *ending) Skip(...any)           { e.skipped = true }
func (e *ending) Fatalf(string, ...any) { e.failed = true }

// TestNoBrowserFailsInCI: without Chromium a browser test fails when CI
// is set (as .ci/run sets it) and is skipped otherwise, so that CI cannot
// pass with its browser tests unrun.
func TestNoBrowserFailsInCI(t *testing.T) {
	for ci, want := range map[string]ending{
		"true": {failed: true}, "1": {failed: true},
		"": {skipped: true}, "false": {skipped: true}, "0": {skipped: true},
	} {
		t.Setenv("CI", ci)
		var e ending
		noBrowser(&e)
		require.Equal(t, want.failed, e.failed, "CI=%q", ci)
		require.Equal(t, want.skipped, e.skipped, "CI=%q", ci)
	}
}
