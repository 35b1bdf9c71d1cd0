package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONErrors: with --format json, a program conc cannot compile or
// read is answered on standard output as JSON too, {"errors": [...]},
// every static error with its position, exit 2; the text stays on
// standard error.
func TestJSONErrors(t *testing.T) {
	type jerr struct {
		Pos     string
		Line    int
		Col     int
		Message string
	}
	parse := func(o outcome) []jerr {
		var got struct{ Errors []jerr }
		require.NoError(t, json.Unmarshal([]byte(o.stdout), &got), o.stdout)
		return got.Errors
	}
	bad := file(t, "bad.conc", "vars x\nthread A { read y; write z }\n")
	for _, cmd := range []string{"check", "profiles"} {
		o := conc(cmd, bad, "--format", "json")
		require.Equal(t, exitUsage, o.code, cmd)
		require.Equal(t, []jerr{
			{bad + ":2:17", 2, 17, "undeclared variable y"},
			{bad + ":2:26", 2, 26, "undeclared variable z"},
		}, parse(o), cmd)
		require.Contains(t, o.stderr, bad+":2:17: undeclared variable y")
	}
	o := conc("check", bad+".missing", "--format", "json")
	require.Equal(t, exitUsage, o.code)
	require.Equal(t, []jerr{{Message: "cannot read " + bad + ".missing: no such file or directory"}}, parse(o))
	require.Empty(t, conc("check", bad).stdout, "text: errors on standard error only")
}
