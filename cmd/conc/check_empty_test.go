package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckNoThreads: an empty file, or one without threads, is
// serializable (exit 0) and says it has no threads, in text and in JSON.
func TestCheckNoThreads(t *testing.T) {
	for _, src := range []string{"", "// nothing yet\n", "\ufeffvars x\nproc p { read x }\n"} {
		path := file(t, "empty.conc", src)
		o := conc("check", path, "--quiet")
		require.Equal(t, exitSerializable, o.code, o.stderr)
		require.Equal(t, "serializable\nnote: the program has no threads\n", o.stdout, "%q", src)

		o = conc("check", path, "--format", "json")
		require.Equal(t, exitSerializable, o.code, o.stderr)
		var obj struct{ Verdict, Reason string }
		require.NoError(t, json.Unmarshal([]byte(o.stdout), &obj))
		require.Equal(t, "serializable", obj.Verdict)
		require.Equal(t, "the program has no threads", obj.Reason)
	}
}
