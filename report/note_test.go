package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestNoThreadsNote: a program without threads is serializable and says it
// has no threads: a "note:" line after the verdict, the JSON reason.
func TestNoThreadsNote(t *testing.T) {
	p := &model.Program{File: "empty.conc", Vars: []string{"x"}}
	r, err := BuildLean(p, engines.Result{Verdict: engines.Serializable, Engine: "profile"})
	require.NoError(t, err)

	var text bytes.Buffer
	require.NoError(t, WriteText(&text, r, TextOptions{Quiet: true}))
	require.Equal(t, "serializable\nnote: the program has no threads\n", text.String())

	var js bytes.Buffer
	require.NoError(t, WriteJSON(&js, r))
	var obj map[string]any
	require.NoError(t, json.Unmarshal(js.Bytes(), &obj))
	require.Equal(t, "serializable", obj["verdict"])
	require.Equal(t, "the program has no threads", obj["reason"])

	// A program with a thread, even one that does nothing, gets no note.
	p.Threads = []*model.Thread{{Name: "T", Auto: straight()}}
	r, err = BuildLean(p, engines.Result{Verdict: engines.Serializable, Engine: "profile"})
	require.NoError(t, err)
	require.Empty(t, r.Reason)
}
