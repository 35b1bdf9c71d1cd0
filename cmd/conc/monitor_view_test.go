package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// conc monitor --criterion view on the small traces of testdata/view and
// the six real-trace excerpts: text and JSON kept as golden files, the
// exit code the verdict's.
func TestMonitorViewGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/view/*.std")
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	excerpts := traceExcerpts(t, "../../testdata/traces")
	for _, x := range excerpts {
		inputs = append(inputs, filepath.Join("../../testdata/traces", x.file))
	}
	for _, path := range inputs {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".std")
		text := conc("monitor", path, "--criterion", "view", "--quiet")
		require.Empty(t, text.stderr)
		golden(t, filepath.Join("view", name+".txt"), text.stdout)
		js := conc("monitor", path, "--criterion", "view", "--format", "json")
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(js.stdout), &rep))
		require.Equal(t, text.code, js.code)
		want := map[string]int{"serializable": exitSerializable, "violation": exitViolation, "unknown": exitUnknown}[rep["verdict"].(string)]
		require.Equal(t, want, js.code, name)
		rep["stats"].(map[string]any)["millis"] = 0
		b, err := json.MarshalIndent(rep, "", "  ")
		require.NoError(t, err)
		golden(t, filepath.Join("view", name+".json"), string(b)+"\n")
	}
}

// The conflict criterion is the default, and its answer is unchanged by
// the flag: --criterion conflict prints what no flag prints.
func TestMonitorCriterionDefault(t *testing.T) {
	path := "testdata/view/blind.std"
	plain, explicit := conc("monitor", path), conc("monitor", path, "--criterion", "conflict")
	require.Equal(t, exitViolation, plain.code)
	require.Equal(t, plain.code, explicit.code)
	require.Equal(t, strip(plain.stdout), strip(explicit.stdout))
	view := conc("monitor", path, "--criterion", "view")
	require.Equal(t, exitSerializable, view.code, view.stderr)
	require.Contains(t, view.stdout, "serial order of the 2 transactions")
}

// strip drops the summary line's milliseconds.
func strip(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[:len(lines)-1], "\n")
}

// The flags that do not apply to the criterion are usage errors; a bad
// criterion names the two.
func TestMonitorCriterionFlags(t *testing.T) {
	path := "testdata/view/blind.std"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--criterion", "views"}, `--criterion "views": want conflict or view`},
		{[]string{"--criterion", "view", "--first"}, "--first applies to --criterion conflict"},
		{[]string{"--criterion", "view", "--cycles"}, "--cycles applies to --criterion conflict"},
		{[]string{"--criterion", "view", "--dot", "x.dot"}, "--dot applies to --criterion conflict"},
		{[]string{"--criterion", "view", "--html", "x.html"}, "--html applies to --criterion conflict"},
		{[]string{"--max-states", "10"}, "--max-states applies to --criterion view"},
		{[]string{"--criterion", "view", "--max-states", "-1"}, "want a count of 0 or more"},
	} {
		out := conc(append([]string{"monitor", path}, c.args...)...)
		require.Equal(t, exitUsage, out.code, "%v: %s", c.args, out.stdout)
		require.Contains(t, out.stderr, c.want, "%v", c.args)
	}
}

// --max-states ends the search in unknown (exit 3), --timeout too; a
// trace view decides without a search is untouched by the budget.
func TestMonitorViewBudgets(t *testing.T) {
	src := strings.Repeat("A|begin\nA|r(x)\nA|r(y)\nB|begin\nB|r(x)\nC|w(x)\nC|w(y)\nA|w(x)\nB|w(y)\nA|end\nB|end\n", 1)
	path := file(t, "t.std", src)
	full := conc("monitor", path, "--criterion", "view", "--format", "json")
	require.NotEqual(t, exitUsage, full.code, full.stderr)
	out := conc("monitor", "testdata/view/no-place.std", "--criterion", "view", "--max-states", "1")
	require.Equal(t, exitViolation, out.code, "a violation the propagation finds needs no search state: %s", out.stdout)

	gen := conc("gen", "view-np", "--vars", "12", "--clauses", "50", "--seed", "3")
	require.Equal(t, exitSerializable, gen.code, gen.stderr)
	np := file(t, "np.std", gen.stdout)
	cut := conc("monitor", np, "--criterion", "view", "--max-states", "1")
	require.Equal(t, exitUnknown, cut.code, cut.stdout)
	require.Contains(t, cut.stdout, "--max-states 1")
	_ = os.Remove(np)
}

// TestTracesDocQuotesView: each `$ conc monitor … --criterion view`
// example of docs/trace-commands.md is what conc prints (its timing
// aside).
func TestTracesDocQuotesView(t *testing.T) {
	t.Chdir("../..")
	doc, err := os.ReadFile("docs/trace-commands.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```\n\\$ conc (monitor [^\n]*--criterion view)\n(.*?)```\n").FindAllStringSubmatch(string(doc), -1)
	require.Len(t, blocks, 2)
	millis := regexp.MustCompile(`\d+ ms\n$`)
	for _, b := range blocks {
		args := strings.Fields(b[1])
		args[1] = filepath.Join("cmd/conc", strings.TrimPrefix(args[1], "cmd/conc/"))
		o := conc(args...)
		require.Empty(t, o.stderr)
		require.Equal(t, millis.ReplaceAllString(b[2], "ms\n"), millis.ReplaceAllString(o.stdout, "ms\n"), b[1])
	}
}

// With --lock-edges serial orders keep fork and join: a transaction that
// forks a thread and reads what it wrote has no place (a violation, as
// under the conflict criterion's --lock-edges); without, the thread's
// write goes first.
func TestMonitorViewLockEdges(t *testing.T) {
	path := "testdata/view/fork-inside.std"
	plain := conc("monitor", path, "--criterion", "view")
	require.Equal(t, exitSerializable, plain.code, plain.stdout)
	edges := conc("monitor", path, "--criterion", "view", "--lock-edges")
	require.Equal(t, exitViolation, edges.code, edges.stdout)
	require.Contains(t, edges.stdout, "main lines 1-5 before W line 3: the fork of W at line 2 comes before its first transaction (--lock-edges)")
	require.Equal(t, exitViolation, conc("monitor", path, "--lock-edges").code)
	require.Equal(t, exitSerializable, conc("monitor", path).code)
}
