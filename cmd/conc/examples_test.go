package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/testkit/expect"
	"github.com/stretchr/testify/require"
)

// wantLine is an expectation inside an example: "// want VERDICT [FLAGS]".
var wantLine = regexp.MustCompile(`(?m)^// want (violation|serializable|unknown)(.*)$`)

// TestExamples runs conc check on every example under its want lines, end to
// end: the exit code is the verdict's, and a violation's JSON cycle chains
// conflicting events of the run (docs/spec.md §5).
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.conc")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	codes := map[string]int{"violation": exitViolation, "serializable": exitSerializable, "unknown": exitUnknown}
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, m := range wantLine.FindAllStringSubmatch(string(src), -1) {
			flags := strings.Fields(m[2])
			t.Run(filepath.Base(path)+" "+m[1]+" "+m[2], func(t *testing.T) {
				args := append([]string{"check", path, "--format", "json"}, flags...)
				o := conc(args...)
				want := m[1]
				if o.code == exitUnknown && want == "serializable" {
					// Only where no engine can decide (recursive threads
					// with locks, Theorem 5): the shared judge says when.
					ok, why := unknownAllowed(t, path, src, o.stdout, flags)
					require.True(t, ok, "unknown where %s is decidable:\n%s", want, o.stdout)
					t.Logf("unknown accepted: %s", why)
					want = "unknown"
				}
				require.Equal(t, codes[want], o.code, "stdout:\n%s\nstderr:\n%s", o.stdout, o.stderr)
				checkJSONWitness(t, o.stdout, want)
			})
		}
	}
}

// unknownAllowed asks testkit/expect whether the engine that answered may
// be unsure of this example under these flags.
func unknownAllowed(t *testing.T, path string, src []byte, out string, flags []string) (bool, string) {
	p, err := lang.Compile(path, src)
	require.NoError(t, err)
	var got struct{ Engine string }
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	w, err := expect.Parse("// want serializable " + strings.Join(flags, " "))
	require.NoError(t, err)
	require.Len(t, w, 1)
	return expect.UnknownAllowed(p, got.Engine, w[0].Options)
}

// checkJSONWitness checks the shape docs/spec.md §5 promises: a witness exactly for
// violations, whose cycle pairs are ordered indices into the run.
func checkJSONWitness(t *testing.T, out, verdict string) {
	var got struct {
		Verdict string `json:"verdict"`
		Witness *struct {
			Run   []map[string]string      `json:"run"`
			Cycle []struct{ From, To int } `json:"cycle"`
		} `json:"witness"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Equal(t, verdict, got.Verdict)
	if verdict != "violation" {
		require.Nil(t, got.Witness)
		return
	}
	require.NotNil(t, got.Witness)
	require.NotEmpty(t, got.Witness.Cycle)
	for _, c := range got.Witness.Cycle {
		require.True(t, 0 <= c.From && c.From < c.To && c.To < len(got.Witness.Run), "%v", c)
	}
	for _, e := range got.Witness.Run {
		require.NotEmpty(t, e["thread"])
		require.NotEmpty(t, e["op"])
	}
}
