package engines_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

// paperTable is which engine decides which programs by the paper's
// results, written out once more by hand, apart from the declarations it
// checks: brute only loop-free programs, profile every class without
// synchronisation (Theorems 1 and 3), global finite-state programs with or
// without it (Theorem 4); recursive threads with locks are undecidable.
func paperTable(p *model.Program, engine string) bool {
	switch engine {
	case "brute":
		return p.LoopFree()
	case "profile":
		return !p.HasSync()
	case "global":
		return p.Class() != model.Recursive
	}
	panic(engine)
}

// TestDeclarationsMatchThePaper: on every example program, and each
// without its synchronisation, the engines' declarations (Decides) say
// what the paper says, and auto picks profile without synchronisation,
// global with it.
func TestDeclarationsMatchThePaper(t *testing.T) {
	files, err := filepath.Glob("../examples/*.conc")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	seen := map[engines.Shape]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		p, err := lang.Compile(f, src)
		require.NoError(t, err, f)
		for _, q := range []*model.Program{p, model.DropSync(p)} {
			seen[engines.ShapeOf(q)] = true
			for _, name := range []string{"brute", "profile", "global"} {
				e, err := engines.Lookup(name)
				require.NoError(t, err)
				require.Equal(t, paperTable(q, name), e.DecidesProgram(q), "%s on %s (sync %v)", name, f, q.HasSync())
			}
			auto, err := engines.Auto(q, engines.Options{})
			require.NoError(t, err, f)
			want := "profile"
			if q.HasSync() {
				want = "global"
			}
			require.Equal(t, want, auto.Name, f)
		}
	}
	require.GreaterOrEqual(t, len(seen), 5, "the examples cover the classes with and without locks")
}

// TestRefusalsNameTheEngine: an engine that decides only lock-free programs
// refuses one with locks, naming the engine auto would take instead, and
// accepts it once --ignore-sync drops them.
func TestRefusalsNameTheEngine(t *testing.T) {
	p, err := lang.Compile("locks.conc", []byte("locks m\nvars x\nthread A { sync m { write x } }\nthread B { write x }\n"))
	require.NoError(t, err)
	e, err := engines.Lookup("profile")
	require.NoError(t, err)
	require.EqualError(t, e.Accepts(p, engines.Options{}), "--engine profile cannot decide a program with locks, fork or join: "+
		"use --engine global (or auto), or --ignore-sync for the optimistic answer")
	require.NoError(t, e.Accepts(p, engines.Options{IgnoreSync: true}))
	g, err := engines.Lookup("global")
	require.NoError(t, err)
	require.NoError(t, g.Accepts(p, engines.Options{}))
	require.Equal(t, "global", engines.Pick(engines.ShapeOf(p)).Name)
}
