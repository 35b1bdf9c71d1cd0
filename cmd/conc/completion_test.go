package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHelpSaysDoubleDash: every command's help spells its flags as the
// docs and the error messages do, --name, never -name.
func TestHelpSaysDoubleDash(t *testing.T) {
	for name := range commands {
		o := conc(name, "--help")
		require.Equal(t, 0, o.code, name)
		require.Regexp(t, `(?m)^  --version$`, o.stdout, name)
		require.NotRegexp(t, `(?m)^\s+-[a-z]`, o.stdout, name)
	}
}

// TestSuggestions: -v is the version; a command or flag one typo away
// from a real one is named in the error.
func TestSuggestions(t *testing.T) {
	v := conc("-v")
	require.Equal(t, 0, v.code, v.stderr)
	require.Equal(t, versionLine()+"\n", v.stdout)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"chek"}, `conc: unknown command "chek" (did you mean check?); run 'conc --help'`},
		{[]string{"monitr", "x.std"}, `(did you mean monitor?)`},
		{[]string{"help", "predcit"}, `(did you mean predict?)`},
		{[]string{"check", "x.conc", "--lockedges"}, `--lockedges (did you mean --lock-edges?); run 'conc check --help'`},
		{[]string{"monitor", "x.std", "--frist"}, `--frist (did you mean --first?)`},
		{[]string{"predict", "x.std", "--witnes-out", "w"}, `(did you mean --witness-out?)`},
	} {
		o := conc(tc.args...)
		require.Equal(t, exitUsage, o.code, tc.args)
		require.Contains(t, o.stderr, tc.want, tc.args)
		require.Equal(t, 1, strings.Count(o.stderr, "\n"), o.stderr)
	}
	for _, far := range [][]string{{"frobnicate"}, {"check", "x.conc", "--zz"}} {
		require.NotContains(t, conc(far...).stderr, "did you mean", far)
	}
}

// TestCompletionNamesEverything: each shell's script names every command
// and every flag of every command; the bash script parses, and completes
// a command and a flag.
func TestCompletionNamesEverything(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		o := conc("completion", shell)
		require.Equal(t, 0, o.code, o.stderr)
		for name := range commands {
			require.Regexp(t, `\b`+name+`\b`, o.stdout, shell)
			help := conc(name, "--help").stdout
			for _, m := range helpFlag.FindAllStringSubmatch(help, -1) {
				flagRe := `(--|-l )` + regexp.QuoteMeta(m[1]) + `\b`
				if shell == "fish" {
					flagRe = `from ` + name + `' -l ` + regexp.QuoteMeta(m[1]) + ` `
				}
				require.Regexp(t, flagRe, o.stdout, "%s: conc %s --%s", shell, name, m[1])
			}
		}
	}
	require.Equal(t, exitUsage, conc("completion", "tcsh").code)
	require.Equal(t, exitUsage, conc("completion").code)
	bash, err := exec.LookPath("bash")
	if err != nil {
		return // the scripts' contents are checked above
	}
	script := conc("completion", "bash").stdout
	out, err := exec.Command(bash, "-n", "-c", script).CombinedOutput()
	require.NoError(t, err, string(out))
	complete := func(words string) string {
		prog := script + "\nCOMP_WORDS=(" + words + "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _conc; echo \"${COMPREPLY[*]}\""
		out, err := exec.Command(bash, "-c", prog).CombinedOutput()
		require.NoError(t, err, string(out))
		return strings.TrimSpace(string(out))
	}
	require.Equal(t, "check completion", complete("conc c"))
	require.Equal(t, "--lock-edges", complete("conc check x.conc --lock"))
	require.Equal(t, "--first --format", complete("conc monitor --f"))
}
