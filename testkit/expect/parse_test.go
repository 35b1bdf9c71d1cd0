package expect

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

func TestParse(t *testing.T) {
	src := `// a header
// we want to see prose ignored
vars x // want serializable
// want violation --lock-edges
//want unknown --max-depth 3 --ignore-sync
// want serializable --max-stack=4 --max-states 10
thread A { read x }
`
	ws, err := Parse(src)
	require.NoError(t, err)
	require.Len(t, ws, 4)

	require.Equal(t, 3, ws[0].Line)
	require.Equal(t, engines.Serializable, ws[0].Verdict)
	require.Empty(t, ws[0].Flags)
	require.Equal(t, "default", ws[0].Key())
	require.Equal(t, engines.Options{}, ws[0].Options)

	require.Equal(t, engines.Violation, ws[1].Verdict)
	require.Equal(t, engines.Options{LockEdges: true}, ws[1].Options)
	require.Equal(t, "violation --lock-edges", ws[1].String())

	require.Equal(t, engines.Unknown, ws[2].Verdict)
	require.Equal(t, engines.Options{MaxDepth: 3, IgnoreSync: true}, ws[2].Options)
	require.Equal(t, "--max-depth=3 --ignore-sync", ws[2].Key())

	require.Equal(t, engines.Options{MaxStack: 4, MaxStates: 10}, ws[3].Options)
}

func TestParseErrors(t *testing.T) {
	for src, msg := range map[string]string{
		"// want violation --fast":                                     `unknown flag "--fast"`,
		"// want violation --max-depth":                                "needs a number",
		"// want violation --max-depth x":                              "positive number",
		"// want violation --max-depth=0":                              "positive number",
		"// want violation --lock-edges=1":                             "takes no value",
		"// want violation\n// want serializable":                      "second want for default",
		"// want violation --lock-edges\n// want unknown --lock-edges": "line 2: second want",
	} {
		_, err := Parse(src)
		require.Error(t, err, src)
		require.Contains(t, err.Error(), msg, src)
	}
}

func TestParseNone(t *testing.T) {
	ws, err := Parse("// wanted: nothing\nvars x\n// want to say more\n")
	require.NoError(t, err)
	require.Empty(t, ws)
}
