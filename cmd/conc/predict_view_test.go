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

// conc predict --criterion view on the small traces of testdata/view and
// the real-trace excerpts: the text kept as golden files, the exit code
// the verdict's, the JSON's engine blocks, and every witness written with
// --witness-out flagged by conc monitor --criterion view unless the
// reason says the run as a whole may be view-serializable.
func TestPredictViewGolden(t *testing.T) {
	var inputs []string
	for _, name := range []string{"blind", "fork-inside", "forked", "lost-update", "no-place", "stale-read"} {
		inputs = append(inputs, filepath.Join("testdata/view", name+".std"))
	}
	excerpts := traceExcerpts(t, "../../testdata/traces")
	require.NotEmpty(t, excerpts)
	for _, x := range excerpts {
		inputs = append(inputs, filepath.Join("../../testdata/traces", x.file))
	}
	for _, path := range inputs {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".std")
		w := filepath.Join(t.TempDir(), "w.std")
		text := conc("predict", path, "--criterion", "view", "--quiet", "--witness-out", w)
		require.Empty(t, text.stderr, name)
		golden(t, filepath.Join("predict-view", name+".txt"), text.stdout)
		js := conc("predict", path, "--criterion", "view", "--format", "json")
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(js.stdout), &rep))
		require.Equal(t, "blocks", rep["engine"], name)
		require.Equal(t, text.code, js.code, name)
		want := map[string]int{"serializable": exitSerializable, "violation": exitViolation, "unknown": exitUnknown}[rep["verdict"].(string)]
		require.Equal(t, want, js.code, name)
		if js.code != exitViolation {
			continue
		}
		b, err := os.ReadFile(w)
		require.NoError(t, err)
		require.NotEmpty(t, b, name)
		if !strings.Contains(rep["reason"].(string), "may be view-serializable") {
			mon := conc("monitor", w, "--criterion", "view")
			require.Equal(t, exitViolation, mon.code, "%s: witness\n%s\n%s", name, b, mon.stdout)
		}
	}
}

// The conflict criterion is the default, and --criterion conflict says
// what no flag says; --criterion view answers blind writes
// serializable, where the conflict criterion finds a violation; what does
// not apply to it is a usage error.
func TestPredictCriterion(t *testing.T) {
	path := "testdata/view/blind.std"
	plain, explicit := conc("predict", path), conc("predict", path, "--criterion", "conflict")
	require.Equal(t, exitViolation, plain.code)
	require.Equal(t, plain.code, explicit.code)
	require.Equal(t, strip(plain.stdout), strip(explicit.stdout))
	view := conc("predict", path, "--criterion", "view")
	require.Equal(t, exitSerializable, view.code, view.stderr)
	for _, args := range [][]string{{"--criterion", "views"}, {"--criterion", "view", "--all"},
		{"--criterion", "view", "--lock-edges"}, {"--criterion", "view", "--engine", "global"},
		{"--criterion", "view", "--ignore-sync"}, {"--criterion", "view", "--summary-out", "-"},
		{"--criterion", "view", "testdata/view/lost-update.std"}} {
		out := conc(append([]string{"predict", path}, args...)...)
		require.Equal(t, exitUsage, out.code, "%v: %s", args, out.stderr)
		require.Contains(t, out.stderr, "conc: predict: ", args)
	}
}

// TestTracesDocQuotesPredictView: each `$ conc predict … --criterion
// view` example of docs/trace-commands.md is what conc prints (its timing
// and its count of the search's work aside).
func TestTracesDocQuotesPredictView(t *testing.T) {
	t.Chdir("../..")
	doc, err := os.ReadFile("docs/trace-commands.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```\n\\$ conc (predict [^\n]*--criterion view)\n(.*?)```\n").FindAllStringSubmatch(string(doc), -1)
	require.Len(t, blocks, 2)
	work := regexp.MustCompile(`engine blocks: \d+ states?, (\d+ events?), \d+ ms\n$`)
	for _, b := range blocks {
		args := strings.Fields(b[1])
		args[1] = filepath.Join("cmd/conc", strings.TrimPrefix(args[1], "cmd/conc/"))
		o := conc(args...)
		require.Empty(t, o.stderr)
		require.Equal(t, work.ReplaceAllString(b[2], "$1\n"), work.ReplaceAllString(o.stdout, "$1\n"), b[1])
	}
}
