package serve

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRememberedExplanations: an explanation is remembered unless a limit
// cut it short (Cut). Its words do not decide: the profiles of a thread
// named unknown start with "thread unknown", and are remembered all the
// same.
func TestRememberedExplanations(t *testing.T) {
	calls := map[string]int{}
	cut := map[string]bool{}
	explain := func(_ context.Context, src []byte, _ Query) (*Explanation, error) {
		calls[string(src)]++
		return &Explanation{Engine: "profile", Why: "The profile engine decides it, as --engine asked.", Cut: cut[string(src)],
			Profiles: "unknown (straight-line): 1 profile\n  [write x]\n"}, nil
	}
	h := New(Config{Check: compileOnly, Explain: explain})
	named := "thread unknown { write x }\n"
	cutShort := "thread A { write x }\n"
	cut[cutShort] = true
	for range 2 {
		require.Equal(t, http.StatusOK, post(t, h, "/api/explain", named).Code)
		require.Equal(t, http.StatusOK, post(t, h, "/api/explain", cutShort).Code)
	}
	require.Equal(t, 1, calls[named], "a whole explanation is remembered, whatever its words")
	require.Equal(t, 2, calls[cutShort], "an explanation a limit cut short is not remembered")
}
