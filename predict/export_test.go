package predict

import "testing"

// For findall_external_test.go: the hooks through which predict's tests
// run predict --all (allhook_test.go).

type (
	AllAnswer = allAnswer
	AllGroup  = allGroup
)

// SetAllHooks installs predict --all for predict's tests.
func SetAllHooks(run func(t testing.TB, src string, o Options) *AllAnswer, exact func(t *testing.T, src string, out *Outcome, dropSync bool)) {
	runAll, requireScheduleExact = run, exact
}
