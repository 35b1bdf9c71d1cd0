package engines_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/model"
)

// TestIgnoreSyncNote: under --ignore-sync a violation carries the note
// docs/spec.md §4 gives, whichever engine found it and whether or not the
// caller dropped the lock events first (conc check does: its note is then
// the engine's).
func TestIgnoreSyncNote(t *testing.T) {
	p := enginetest.Compile(t, "locks m\nvars x\nthread A { sync m { atomic { read x; write x } } }\nthread B { sync m { write x } }\n")
	for _, name := range []string{"brute", "global", "profile"} {
		e, err := engines.Lookup(name)
		require.NoError(t, err)
		for _, q := range []*model.Program{p, model.DropSync(p)} {
			res, err := e.Check(t.Context(), q, engines.Options{IgnoreSync: true})
			require.NoError(t, err)
			require.Equal(t, engines.Violation, res.Verdict, name)
			if q == p || res.Reason != "" {
				require.Equal(t, engines.OptimisticNote, res.Reason, name)
			}
		}
	}
}
