package main

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// liar returns an engine that answers as brute does, then spoils a
// violation's witness with spoil: an engine bug that only the witness
// gate (check.Replays) can catch, since the report renders the spoilt witness
// as readily as a good one.
func liar(name string, spoil func(*model.Witness) *model.Witness) *engines.Engine {
	return &engines.Engine{
		Name:     name,
		Doc:      "brute, with a spoilt witness (tests only)",
		Supports: func(*model.Program, engines.Options) error { return nil },
		Check: func(ctx context.Context, p *model.Program, opts engines.Options) (engines.Result, error) {
			brute, err := engines.Lookup("brute")
			if err != nil {
				return engines.Result{}, err
			}
			res, err := brute.Check(ctx, p, opts)
			if err == nil && res.Verdict == engines.Violation {
				res.Witness = spoil(res.Witness)
			}
			res.Engine = name
			return res, err
		},
	}
}

var (
	// A cycle that does not close: its last pair is gone.
	unclosed = liar("test-unclosed", func(w *model.Witness) *model.Witness {
		c := *w
		c.Cycle = slices.Clip(w.Cycle[:len(w.Cycle)-1])
		return &c
	})
	// A run that stops short of its paths: the last event is gone.
	truncated = liar("test-truncated", func(w *model.Witness) *model.Witness {
		c := *w
		c.Run = w.Run[:len(w.Run)-1]
		return &c
	})
	// A violation without its witness.
	silent = liar("test-silent", func(*model.Witness) *model.Witness { return nil })
	// A witness stated in the other conflict relation.
	relation = liar("test-relation", func(w *model.Witness) *model.Witness {
		c := *w
		c.LockEdges = !w.LockEdges
		return &c
	})
)

func init() {
	for _, e := range []*engines.Engine{unclosed, truncated, silent, relation} {
		engines.Register(e)
	}
}

// requireUnreplayed checks for the internal error of engine's witness that
// verify rejected: exit 2, one line on stderr, nothing on stdout.
func requireUnreplayed(t *testing.T, engine string, o outcome, args []string) {
	t.Helper()
	require.Equal(t, exitUsage, o.code, "%v\nstdout:\n%s\nstderr:\n%s", args, o.stdout, o.stderr)
	require.Empty(t, o.stdout, args)
	require.Regexp(t, `^conc: internal error \(please report\): `+regexp.QuoteMeta(engine)+
		`'s witness does not replay: [^\n]+\n$`, o.stderr, args)
}

// TestCheckWitnessGate: conc check shows no violation whose witness does not
// replay, whatever the engine, the switches or the format.
func TestCheckWitnessGate(t *testing.T) {
	bank, locked := file(t, "bank.conc", lostUpdate), file(t, "guarded.conc", guarded)
	for _, eng := range []*engines.Engine{unclosed, truncated, silent, relation} {
		for _, args := range [][]string{
			{"check", bank, "--engine", eng.Name},
			{"check", bank, "--engine", eng.Name, "--format", "json"},
			{"check", bank, "--engine", eng.Name, "--lock-edges"},
			{"check", locked, "--engine", eng.Name, "--ignore-sync"},
			{"check", locked, "--engine", eng.Name, "--ignore-sync", "--lock-edges", "--quiet"},
		} {
			t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
				requireUnreplayed(t, eng.Name, conc(args...), args)
			})
		}
	}
}

// TestPredictWitnessGate: the same for conc predict's lock-aware path, whose
// engine's witness (over the reduced projection) is expanded to the full
// projection and replayed there.
func TestPredictWitnessGate(t *testing.T) {
	reorder, forked := file(t, "r.std", reorderTrace), file(t, "f.std", forkedTrace)
	for _, eng := range []*engines.Engine{unclosed, truncated, silent} {
		for _, args := range [][]string{
			{"predict", reorder, "--engine", eng.Name},
			{"predict", forked, "--engine", eng.Name, "--format", "json"},
			{"predict", forked, "--engine", eng.Name, "--lock-edges"},
			{"predict", forked, "--engine", eng.Name, "--ignore-sync"},
		} {
			t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
				requireUnreplayed(t, eng.Name, conc(args...), args)
			})
		}
	}
}

// TestWitnessGateWritesNoFile: --dot and --witness-out are not written
// for a witness that does not replay.
func TestWitnessGateWritesNoFile(t *testing.T) {
	dir := t.TempDir()
	dot, wit := filepath.Join(dir, "c.dot"), filepath.Join(dir, "w.std")
	for _, args := range [][]string{
		{"check", file(t, "bank.conc", lostUpdate), "--engine", unclosed.Name, "--dot", dot},
		{"predict", file(t, "r.std", reorderTrace), "--engine", unclosed.Name, "--dot", dot, "--witness-out", wit},
	} {
		requireUnreplayed(t, unclosed.Name, conc(args...), args)
		require.NoFileExists(t, dot, args)
		require.NoFileExists(t, wit, args)
	}
}
