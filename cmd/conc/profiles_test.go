package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProfilesCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.conc")
	src := "thread A { atomic { read x; write y } }\nthread W[2] { write x }\n"
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))

	o := conc("profiles", path)
	require.Equal(t, 0, o.code, o.stderr)
	require.Contains(t, o.stdout, "[read x, write y]")

	o = conc("profiles", path, "--format", "json")
	require.Equal(t, 0, o.code, o.stderr)
	var out struct {
		Vars    []string `json:"vars"`
		Threads []struct {
			Names    []string `json:"names"`
			Count    int      `json:"count"`
			Profiles []struct {
				Kind string `json:"kind"`
			} `json:"profiles"`
		} `json:"threads"`
	}
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &out))
	require.Equal(t, []string{"x", "y"}, out.Vars)
	groups := out.Threads
	require.Len(t, groups, 2)
	require.Equal(t, []string{"W[0]", "W[1]"}, groups[1].Names)
	// A: read x, write y alone, and the pair in one transaction.
	require.Equal(t, 3, groups[0].Count)
	require.Equal(t, 1, groups[1].Count)

	o = conc("profiles", filepath.Join(dir, "missing.conc"))
	require.Equal(t, exitUsage, o.code)
	o = conc("profiles", path, "--format", "xml")
	require.Equal(t, exitUsage, o.code)
}
