package report

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// TestSpecNamesEveryJSONField: docs/spec.md §5 states every member that
// WriteJSON can emit, so the contract and the encoding cannot drift apart.
func TestSpecNamesEveryJSONField(t *testing.T) {
	b, err := os.ReadFile("../docs/spec.md")
	require.NoError(t, err)
	spec := string(b)
	start, end := strings.Index(spec, "\n## 5. "), strings.Index(spec, "\n## 6. ")
	require.True(t, start >= 0 && end > start, "docs/spec.md has no §5")
	output := spec[start:end]
	for _, v := range []any{Report{}, Witness{}, Event{}, Conflict{}, Violation{}, TraceStep{}, Group{}, CycleTxn{}, TraceEvent{}, engines.Stats{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			require.Contains(t, output, "`"+name+"`", "docs/spec.md §5 does not state %s's JSON member %q", rt.Name(), name)
		}
	}
}
