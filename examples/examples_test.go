package examples_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/testkit/expect"
)

// perCheck bounds one engine run on one example; the examples are small, so
// hitting it is a failure (the engine answers unknown, which Judge refuses
// wherever a decision is possible).
const perCheck = 20 * time.Second

// example is one .conc file of the catalogue, compiled, with its wants.
type example struct {
	name  string
	src   string
	prog  *model.Program
	wants []expect.Want
}

func load(t *testing.T) []example {
	t.Helper()
	files, err := filepath.Glob("*.conc")
	require.NoError(t, err)
	var exs []example
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		wants, err := expect.Parse(string(src))
		require.NoError(t, err, f)
		require.NotEmpty(t, wants, "%s has no want line", f)
		prog, err := lang.Compile(f, src)
		require.NoError(t, err, f)
		exs = append(exs, example{f, string(src), prog, wants})
	}
	return exs
}

// TestExamples checks every want of every example against every registered
// engine that supports it; brute must support all of them.
func TestExamples(t *testing.T) {
	_, err := engines.Lookup(expect.Bounded)
	require.NoError(t, err, "the brute engine must be registered")
	for _, ex := range load(t) {
		t.Run(strings.TrimSuffix(ex.name, ".conc"), func(t *testing.T) {
			for _, name := range engines.Names() {
				e, err := engines.Lookup(name)
				require.NoError(t, err)
				for _, w := range ex.wants {
					checkWant(t, ex, e, w)
				}
			}
		})
	}
}

func checkWant(t *testing.T, ex example, e *engines.Engine, w expect.Want) {
	t.Helper()
	if err := e.Supports(ex.prog, w.Options); err != nil {
		require.NotEqual(t, expect.Bounded, e.Name, "%s must support every example: %v", e.Name, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), perCheck)
	defer cancel()
	res, err := e.Check(ctx, ex.prog, w.Options)
	require.NoError(t, err, "%s on %s (want %s)", e.Name, ex.name, w)
	require.NoError(t, expect.Judge(ex.prog, e.Name, w, res), "%s line %d", ex.name, w.Line)
}

// TestCatalogue checks that the examples teach what the catalogue promises:
// a header comment each, every class of the paper with and without locks,
// both verdicts, and a program whose verdict --lock-edges changes.
func TestCatalogue(t *testing.T) {
	exs := load(t)
	require.GreaterOrEqual(t, len(exs), 14)
	seen := map[string]bool{}
	for _, ex := range exs {
		require.True(t, strings.HasPrefix(ex.src, "// "), "%s: no header comment", ex.name)
		class := ex.prog.Class().String()
		seen[class] = true
		if ex.prog.HasSync() {
			seen[class+"+locks"] = true
		}
		byKey := map[string]engines.Verdict{}
		for _, w := range ex.wants {
			byKey[w.Key()] = w.Verdict
			seen[w.Verdict.String()] = true
		}
		if d, ok := byKey["default"]; ok {
			if le, ok := byKey["--lock-edges"]; ok && le != d {
				seen["lock-edges-changes"] = true
			}
		}
	}
	for _, want := range []string{"straight-line", "regular", "recursive", "straight-line+locks",
		"regular+locks", "recursive+locks", "violation", "serializable", "lock-edges-changes"} {
		require.True(t, seen[want], "no example covers %s", want)
	}
}
