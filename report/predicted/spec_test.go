package predicted

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpecNamesPredictAllJSON: docs/spec.md §5 states every member of
// conc predict --all's JSON.
func TestSpecNamesPredictAllJSON(t *testing.T) {
	b, err := os.ReadFile("../../docs/spec.md")
	require.NoError(t, err)
	spec := string(b)
	start, end := strings.Index(spec, "\n## 5. "), strings.Index(spec, "\n## 6. ")
	require.True(t, start >= 0 && end > start, "docs/spec.md has no §5")
	output := spec[start:end]
	require.Contains(t, output, "predict --all")
	for _, v := range []any{allHead{}, allGroup{}, allTail{}, Schedule{}, ScheduleCut{}, ScheduleSegment{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			require.Contains(t, output, "`"+name+"`", "docs/spec.md §5 does not state %s's JSON member %q", rt.Name(), name)
		}
	}
}
