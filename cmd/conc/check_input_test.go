package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// Input checks of conc check: programs without threads, undeclared names.

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

// TestNoThreadsEveryEngine: every engine, asked by name, answers the same for
// a program without threads (serializable with the note), none calls it
// invalid input.
func TestNoThreadsEveryEngine(t *testing.T) {
	path := file(t, "empty.conc", "vars x\n")
	for _, eng := range []string{"auto", "profile", "global", "brute"} {
		for _, le := range [][]string{nil, {"--lock-edges"}} {
			args := append([]string{"check", path, "--quiet", "--engine", eng}, le...)
			o := conc(args...)
			require.Equal(t, exitSerializable, o.code, "%v: %s", args, o.stderr)
			require.Equal(t, "serializable\nnote: the program has no threads\n", o.stdout, "%v", args)
		}
	}
}

// TestCheckUndeclaredLock: a file that declares its variables and not its
// locks, with "sync mm" a typo for m, is exit 2 with each use's
// file:line:col, not a program with a second lock and another verdict.
func TestCheckUndeclaredLock(t *testing.T) {
	path := file(t, "typo.conc", "vars x\nthread A { sync m { read x; write x } }\nthread B { sync mm { write x } }\n")
	o := conc("check", path)
	require.Equal(t, exitUsage, o.code, o.stdout)
	require.Empty(t, o.stdout)
	why := " (the file declares variables, so every lock must be declared)\n"
	require.Equal(t, path+":2:17: undeclared lock m"+why+path+":3:17: undeclared lock mm"+why, o.stderr)
}
