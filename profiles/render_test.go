package profiles

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/conc-dev/conc/model"
	"github.com/stretchr/testify/require"
)

func renderProgram() *model.Program {
	w := line("b r0 w0 e")
	return &model.Program{
		Vars: []string{"x", "y"},
		Threads: []*model.Thread{
			{Name: "A", Auto: line("b r0 e b w1 e")},
			{Name: "W[0]", Auto: w}, {Name: "W[1]", Auto: w},
			{Name: "W[2]", Auto: w}, {Name: "W[3]", Auto: w},
		},
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Write(t.Context(), &b, renderProgram(), "text"))
	require.Equal(t, `thread A (straight-line): 3 profiles
  [read x]
  [write y]
  [read x] [write y]
threads W[0] … W[3] (4 sharing one automaton, straight-line): 3 profiles
  [read x]
  [write x]
  [read x, write x]
`, b.String())
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Write(t.Context(), &b, renderProgram(), "json"))
	var got struct {
		Vars    []string
		Threads []Group
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &got))
	require.Equal(t, []string{"x", "y"}, got.Vars)
	require.Len(t, got.Threads, 2)
	require.Equal(t, []string{"W[0]", "W[1]", "W[2]", "W[3]"}, got.Threads[1].Names)
	require.Equal(t, ProfileJSON{Kind: "same", Events: []EventJSON{{"read", "x"}, {"write", "x"}}}, got.Threads[1].Profiles[2])
	require.Equal(t, 3, got.Threads[0].Count)
}

func TestWriteRecursiveAndErrors(t *testing.T) {
	p := renderProgram()
	pd := line("b r0 e")
	pd.Out[1][0].Stack = model.StackPush
	p.Threads = append(p.Threads, &model.Thread{Name: "R", Auto: pd})
	var b bytes.Buffer
	require.NoError(t, Write(t.Context(), &b, p, "text"))
	require.Contains(t, b.String(), "thread R (recursive): 1 profile\n  [read x]\n")
	require.Error(t, Write(t.Context(), &b, p, "xml"))
	p.Threads[0].Auto = line("b r7 e")
	require.Error(t, Write(t.Context(), &b, p, "text"))
}
