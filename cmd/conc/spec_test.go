package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// specCommandSection is the text of docs/spec.md's "### `conc NAME" part of
// §4, up to the next heading.
func specCommandSection(t *testing.T, spec, name string) string {
	start := strings.Index(spec, "### `conc "+name+" ")
	if start < 0 {
		start = strings.Index(spec, "### `conc "+name+"`")
	}
	require.GreaterOrEqual(t, start, 0, "docs/spec.md §4 has no section for conc %s", name)
	rest := spec[start+4:]
	if end := strings.Index(rest, "\n#"); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// helpFlag is a flag line of a command's --help ("  --name VALUE").
var helpFlag = regexp.MustCompile(`(?m)^  --([a-z][a-z-]*)`)

// TestSpecNamesEveryFlag: docs/spec.md §4 states every flag of every
// command, in that command's section (predict's section adds to check's).
func TestSpecNamesEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../docs/spec.md")
	require.NoError(t, err)
	spec := string(b)
	inherits := map[string]string{"predict": "check"}
	for _, name := range []string{"check", "predict", "monitor", "merge", "profiles", "gen", "bench", "serve"} {
		var out, errOut bytes.Buffer
		require.Equal(t, 0, run([]string{name, "--help"}, strings.NewReader(""), &out, &errOut), name)
		section := specCommandSection(t, spec, name)
		if parent, ok := inherits[name]; ok {
			section += specCommandSection(t, spec, parent)
		}
		flags := helpFlag.FindAllStringSubmatch(out.String(), -1)
		require.NotEmpty(t, flags, "conc %s --help lists no flags", name)
		for _, m := range flags {
			require.Contains(t, section, "`--"+m[1], "docs/spec.md §4 does not state conc %s --%s", name, m[1])
		}
	}
}
