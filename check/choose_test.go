package check

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestChooseEngine checks auto's choice against docs/spec.md §4: the
// paper's engine (the CLI registers every engine, engines/all).
func TestChooseEngine(t *testing.T) {
	free := &model.Program{Threads: []*model.Thread{{Name: "A", Auto: &model.Automaton{Out: [][]model.Edge{
		{{To: 1, Ev: model.Event{Op: model.OpBegin, Target: -1}}}, nil}}}}}
	synced := &model.Program{Locks: []string{"m"}, Threads: []*model.Thread{{Name: "A", Auto: &model.Automaton{Out: [][]model.Edge{
		{{To: 1, Ev: model.Event{Op: model.OpAcquire, Target: 0}}}, nil}}}}}
	got, err := Choose("auto", free, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, "profile", got.Name)
	got, err = Choose("auto", synced, engines.Options{})
	require.NoError(t, err)
	require.Equal(t, "global", got.Name)
	got, err = Choose("auto", model.DropSync(synced), engines.Options{})
	require.NoError(t, err)
	require.Equal(t, "profile", got.Name, "--ignore-sync leaves no synchronisation")
	_, err = Choose("profile", synced, engines.Options{})
	require.ErrorContains(t, err, "--ignore-sync")
	_, err = Choose("nonsense", free, engines.Options{})
	require.ErrorContains(t, err, "--engine")
}
