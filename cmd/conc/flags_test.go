package main

import (
	"bytes"
	"flag"
	"testing"

	"github.com/stretchr/testify/require"
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
