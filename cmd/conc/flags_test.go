package main

import (
	"bytes"
	"flag"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

func TestParseFlagsInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		pos    []string
		format string
		quiet  bool
	}{
		{[]string{"f.conc"}, []string{"f.conc"}, "text", false},
		{[]string{"--format", "json", "f.conc"}, []string{"f.conc"}, "json", false},
		{[]string{"f.conc", "--format", "json", "--quiet"}, []string{"f.conc"}, "json", true},
		{[]string{"a", "--quiet", "b"}, []string{"a", "b"}, "text", true},
		{[]string{"--quiet", "--", "--format"}, []string{"--format"}, "text", true},
		{[]string{"-"}, []string{"-"}, "text", false},
	} {
		var f decideFlags
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		f.register(fs)
		e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
		pos, err := parseFlags(e, &command{name: "check"}, fs, tc.args)
		require.NoError(t, err, tc.args)
		require.Equal(t, tc.pos, pos, tc.args)
		require.Equal(t, tc.format, f.format, tc.args)
		require.Equal(t, tc.quiet, f.quiet, tc.args)
	}
}

// TestChooseEngine checks auto's choice against docs/spec.md §4: the
// paper's engine (the CLI registers every engine, engines/all).
func TestChooseEngine(t *testing.T) {
	free := &model.Program{Threads: []*model.Thread{{Name: "A", Auto: &model.Automaton{Out: [][]model.Edge{
		{{To: 1, Ev: model.Event{Op: model.OpBegin, Target: -1}}}, nil}}}}}
	synced := &model.Program{Locks: []string{"m"}, Threads: []*model.Thread{{Name: "A", Auto: &model.Automaton{Out: [][]model.Edge{
		{{To: 1, Ev: model.Event{Op: model.OpAcquire, Target: 0}}}, nil}}}}}
	got, err := chooseEngine("auto", free, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, "profile", got.Name)
	got, err = chooseEngine("auto", synced, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, "global", got.Name)
	got, err = chooseEngine("auto", model.DropSync(synced), engines.Options{})
	require.NoError(t, err)
	require.Equal(t, "profile", got.Name, "--ignore-sync leaves no synchronisation")
	_, err = chooseEngine("profile", synced, engines.Options{})
	require.ErrorContains(t, err, "--ignore-sync")
	_, err = chooseEngine("nonsense", free, engines.Options{})
	require.ErrorContains(t, err, "--engine")
}
