package main

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// hugeProgram is three lines whose automata have 24,000,005 states: about
// 5 s and 2.5 GB to compile, and as long again for the passes that choose
// the engine, whatever the limits.
const hugeProgram = "vars x\nthread A { atomic { repeat 1000000 { repeat 24 { read x } } } }\nthread B { write x }\n"

// TestCheckCompileHonoursTimeout: --timeout covers compiling: the huge
// program is unknown with the timeout's reason soon after the deadline,
// not a violation 15 s later. (The verdict tells a compile that ignores
// the deadline from one that honours it; the bound on the time, loose for
// loaded machines, catches a compile that does not stop.)
func TestCheckCompileHonoursTimeout(t *testing.T) {
	path := file(t, "huge.conc", hugeProgram)
	start := time.Now()
	o := conc("check", path, "--timeout", "300ms")
	require.Equal(t, exitUnknown, o.code, "%s%s", o.stdout, o.stderr)
	require.Contains(t, o.stdout, "unknown: timeout: no answer within 300ms (--timeout)\n")
	require.Less(t, time.Since(start), 10*time.Second, "well before compiling ends (5 s and more)")
}

// TestCheckCompileHonoursMaxStates: the automata's states count against
// --max-states; the compile stops at the limit, at once.
func TestCheckCompileHonoursMaxStates(t *testing.T) {
	path := file(t, "huge.conc", hugeProgram)
	start := time.Now()
	o := conc("check", path, "--max-states", "1000")
	require.Equal(t, exitUnknown, o.code, "%s%s", o.stdout, o.stderr)
	require.Contains(t, o.stdout, "unknown: compiling the program's automata: more than 1,000 states (--max-states 1000)\n")
	require.Less(t, time.Since(start), 10*time.Second, "well before compiling ends (5 s and more)")
	// A program within the limit is checked as usual.
	o = conc("check", file(t, "p.conc", lostUpdate), "--max-states", "1000")
	require.Equal(t, exitViolation, o.code, o.stderr)
}

// TestProfilesCompileHonoursTimeout: conc profiles compiles under its
// --timeout too.
func TestProfilesCompileHonoursTimeout(t *testing.T) {
	path := file(t, "huge.conc", hugeProgram)
	start := time.Now()
	o := conc("profiles", path, "--timeout", "300ms")
	require.Equal(t, exitUnknown, o.code, "%s%s", o.stdout, o.stderr)
	require.Equal(t, "unknown: timeout: no answer within 300ms (--timeout)\n", o.stdout)
	require.Less(t, time.Since(start), 10*time.Second, "well before compiling ends (5 s and more)")
}

// TestServeCompileHonoursTimeout: conc serve passes a request's time
// limit down to the compile: /api/check and /api/explain answer the huge
// program's unknown soon after it.
func TestServeCompileHonoursTimeout(t *testing.T) {
	h := playground(serveFlags{timeout: 300 * time.Millisecond})
	start := time.Now()
	w := postProgram(t, h, "/api/check", "", hugeProgram)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var r struct{ Verdict, Reason string }
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &r))
	require.Equal(t, "unknown", r.Verdict)
	require.Equal(t, "timeout: no answer within 300ms (--timeout)", r.Reason)
	require.Less(t, time.Since(start), 10*time.Second, "well before compiling ends (5 s and more)")

	start = time.Now()
	w = postProgram(t, h, "/api/explain", "", hugeProgram)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	require.Contains(t, w.Body.String(), "unknown: timeout: no answer within 300ms (--timeout)")
	require.Less(t, time.Since(start), 10*time.Second, "well before compiling ends (5 s and more)")
}
