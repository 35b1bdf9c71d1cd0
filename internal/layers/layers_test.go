package layers

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/conc-dev/conc/"

// graph maps a package (its path below the module) to the module's
// packages its files import.
type graph map[string][]string

// readGraphs parses the import clauses of every .go file below root
// (testdata and hidden directories left out): code holds the imports of
// non-test files, tests those of _test.go files.
func readGraphs(t *testing.T, root string) (code, tests graph) {
	code, tests = graph{}, graph{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") {
			return nil
		}
		g := code
		if strings.HasSuffix(name, "_test.go") {
			g = tests
		}
		return g.addFile(fset, root, path)
	})
	require.NoError(t, err)
	return code, tests
}

// addFile records the module's packages that the file at path imports.
func (g graph) addFile(fset *token.FileSet, root, path string) error {
	f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil {
		return err
	}
	pkg := filepath.ToSlash(rel)
	if _, ok := g[pkg]; !ok {
		g[pkg] = nil
	}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return err
		}
		if strings.HasPrefix(p, module) {
			g[pkg] = append(g[pkg], strings.TrimPrefix(p, module))
		}
	}
	return nil
}

// deps is every package pkg depends on, directly or not.
func (g graph) deps(pkg string) map[string]bool {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, q := range g[p] {
			if !seen[q] {
				seen[q] = true
				walk(q)
			}
		}
	}
	walk(pkg)
	return seen
}

// programSide are the packages that check .conc programs: none may depend
// on the trace reader (trace) or the trace monitor (monitor, and so
// monitor/pass).
var programSide = []string{"model", "lang", "profiles", "monitor/graph", "monitor/fsm", "engines", "verify", "report", "report/html", "check", "serve"}

// engineImports are the engines one engine may import: global asks
// profile first (its prefilter, docs/global.md).
var engineImports = map[string][]string{"engines/global": {"engines/profile"}}

func isEngine(p string) bool {
	return strings.HasPrefix(p, "engines/") && p != "engines/all" && !strings.HasPrefix(p, "engines/internal/")
}

func isUnder(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// isBase reports whether p is on the base floor: internal/* holds small
// packages every layer may use, so they import nothing above it.
func isBase(p string) bool { return isUnder(p, "internal") }

// isTestKit reports whether p is a test kit: helpers that import the
// module's own packages to test them, for test files only.
func isTestKit(p string) bool { return isUnder(p, "testkit") || contains(treeKits, p) }

// treeKits are the test kits that live under the package tree whose tests
// use them (docs/design.md): only test files and other kits import them.
var treeKits = []string{"engines/internal/enginetest", "monitor/internal/montest", "predict/internal/proj/projtest"}

// floorBroken reports the edge pkg -> q leaving the base floor upward.
func floorBroken(pkg, q string) (string, bool) {
	if isBase(pkg) && !isBase(q) {
		return fmt.Sprintf("%s imports %s: internal/* is the base floor, it imports only internal/*", pkg, q), true
	}
	return "", false
}

// testViolations lists the edges of g, the imports of test files, that the
// rules forbid: a base package stays on its floor in its tests too.
func (g graph) testViolations() []string {
	var bad []string
	for pkg, imps := range g {
		for _, q := range imps {
			if msg, ok := floorBroken(pkg, q); ok {
				bad = append(bad, msg+" (in a test)")
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// violations lists the edges of g that docs/design.md's rules forbid.
func (g graph) violations() []string {
	var bad []string
	add := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	for pkg, imps := range g {
		for _, q := range imps {
			if msg, ok := floorBroken(pkg, q); ok {
				bad = append(bad, msg)
			}
			if isTestKit(q) && !isTestKit(pkg) {
				add("%s imports the test kit %s: only test files import test kits", pkg, q)
			}
			switch {
			case pkg == "model":
				add("model imports %s: model is the bottom layer", q)
			case pkg == "engines" && isUnder(q, "engines"):
				add("the registry (engines) imports the engine %s: it knows only types", q)
			case isEngine(pkg) && isEngine(q) && !contains(engineImports[pkg], q):
				add("engine %s imports engine %s", pkg, q)
			case pkg == "record/rt" || pkg == "record/internal/instr":
				add("%s imports %s: the recorder's runtime and rewrite import the standard library only (the runtime is built into the user's tests)", pkg, q)
			case isUnder(q, "record") && !isUnder(pkg, "record") && pkg != "cmd/conc":
				add("%s imports %s: only conc record's command uses the recorder", pkg, q)
			case pkg == "record" && q != "record/internal/instr" && !isBase(q):
				add("record imports %s: the recorder writes traces, it does not read or check them", q)
			case pkg == "monitor/internal/txn":
				add("monitor/internal/txn imports %s: the trace monitor's nodes and records import nothing of ours", q)
			case pkg == "monitor" && q == "monitor/internal/txn":
				// the trace monitor's nodes and records.
			case pkg == "monitor/pass" && (q == "monitor" || q == "monitor/atomicity"):
				// the pass over a trace runs the conflict graph and the
				// per-transaction monitor side by side.
			case isUnder(pkg, "monitor") && isUnder(q, "monitor"):
				add("monitor %s imports monitor %s: the monitors are independent", pkg, q)
			case pkg == "predict/internal/proj" && !isBase(q) && !contains(projImports, q):
				add("predict/internal/proj imports %s: the projection layer builds on %s only", q, strings.Join(projImports, ", "))
			case pkg == "predict/internal/chain" && isUnder(q, "predict") && q != "predict/internal/proj":
				// predict drives the chain search; the search knows only
				// the projection it runs over.
				add("predict/internal/chain imports %s: the chain search builds on the projection layer, not on predict", q)
			case pkg == "predict/internal/nested" && isUnder(q, "predict") && q != "predict/internal/proj" && q != "predict/internal/hb":
				// predict drives the linear two-thread decision and
				// verifies its runs; the decision knows only the projection.
				add("predict/internal/nested imports %s: the linear two-thread decision builds on the projection layer and its clocks, not on predict", q)
			case pkg == "predict/internal/pair" && isUnder(q, "predict") && q != "predict/internal/proj" && q != "predict/internal/hb":
				// predict drives the two-thread patterns; they know only
				// the projection they run over, and no other finder.
				add("predict/internal/pair imports %s: the two-thread patterns build on the projection layer and its clocks, not on predict or another finder", q)
			case pkg == "predict/internal/hb" && isUnder(q, "predict") && q != "predict/internal/proj":
				// the happens-before clocks several finders share know only
				// the projection's edges.
				add("predict/internal/hb imports %s: the happens-before clocks build on the projection layer, not on predict", q)
			case pkg == "predict/internal/observed" && isUnder(q, "predict") && !contains(observedImports, q):
				add("predict/internal/observed imports %s: the observed-order finder builds on %s only", q, strings.Join(observedImports, ", "))
			case pkg == "predict/internal/forkorder" && isUnder(q, "predict") && !contains(forkOrderImports, q):
				add("predict/internal/forkorder imports %s: the prefilter with fork order builds on %s only", q, strings.Join(forkOrderImports, ", "))
			case pkg == "predict/internal/products" && isUnder(q, "predict") && q != "predict/internal/proj" && q != "predict/internal/hb":
				// predict verifies the pairs' runs; the products run the
				// engine on pair programs of the projection.
				add("predict/internal/products imports %s: the pairs' products build on the projection layer and its clocks, not on predict or another finder", q)
			case pkg == "predict/internal/sites" && isUnder(q, "predict") && q != "predict/internal/proj":
				// The finders find the patterns; the sites only name them.
				add("predict/internal/sites imports %s: the signatures build on the projection layer, not on predict", q)
			case pkg == "predict" && q == "predict/all":
				// --all runs over predict's projection; predict knows
				// nothing of it.
				add("predict imports predict/all: --all builds on predict, not the other way")
			case isUnder(pkg, "predict/internal") && q == "predict/all":
				add("%s imports predict/all: predict's internal packages know nothing of --all", pkg)
			case pkg == "predict/internal/tuning":
				add("predict/internal/tuning imports %s: predict's limits import nothing of ours", q)
			case pkg == "predict/internal/blocks" && isUnder(q, "predict") && q != "predict/internal/proj" && q != "predict/internal/hb":
				// the view criterion's block test and grid search: predict
				// materialises and verifies their runs.
				add("predict/internal/blocks imports %s: the block test builds on the projection layer and its clocks, not on predict or another finder", q)
			case pkg == "predict/internal/batch" && isUnder(q, "predict") && q != "predict/internal/proj":
				// predict plans the witnesses; a batch only fills and
				// verifies the plans' runs.
				add("predict/internal/batch imports %s: the batches build on the projection layer, not on predict", q)
			}
		}
	}
	for pkg := range g {
		side := isEngine(pkg) || pkg == "engines/all"
		for _, p := range programSide {
			side = side || pkg == p
		}
		d := g.deps(pkg)
		if side && (d["trace"] || d["monitor"]) {
			add("%s checks .conc programs but depends on the trace reader", pkg)
		}
		if pkg == "verify" {
			for q := range d {
				if isUnder(q, "engines") {
					add("verify depends on %s: the checker shares no code with the engines", q)
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// projImports are the packages predict's projection layer builds on: every
// finder of predict uses it, so it imports none of them.
var projImports = []string{"model", "profiles", "trace", "verify"}

// observedImports are the parts of predict the observed-order finder
// builds on: it knows no other finder.
var observedImports = []string{"predict/internal/proj", "predict/internal/hb"}

// forkOrderImports are the parts of predict the prefilter with fork order
// builds on: the lock-free chain search, over summaries it computes.
var forkOrderImports = []string{"predict/internal/proj", "predict/internal/hb", "predict/internal/chain"}

// named are the packages the rules name besides programSide.
var named = []string{"engines/brute", "engines/profile", "engines/global", "monitor", "monitor/atomicity", "monitor/pass", "trace", "predict", "predict/all", "predict/internal/tuning", "tracereport", "report/predicted",
	"internal/budget", "testkit/expect", "testkit/shrink", "testkit/schedtest", "predict/internal/proj",
	"predict/internal/chain", "predict/internal/nested", "predict/internal/pair", "predict/internal/hb", "predict/internal/observed", "predict/internal/forkorder", "predict/internal/sites", "predict/internal/batch", "predict/internal/products", "predict/internal/blocks", "monitor/internal/txn",
	"record", "record/rt", "record/internal/instr"}

// TestLayers: the module's imports keep docs/design.md's rules.
func TestLayers(t *testing.T) {
	code, tests := readGraphs(t, "../..")
	for _, p := range append(programSide, named...) {
		require.Contains(t, code, p, "the rules name a package that is not there")
	}
	require.Empty(t, code.violations())
	require.Empty(t, tests.testViolations())
}

// TestLayersCatch: each rule fires on a graph that breaks it.
func TestLayersCatch(t *testing.T) {
	for _, c := range []struct {
		pkg, imp, want string
	}{
		{"model", "lang", "model imports lang"},
		{"engines", "engines/brute", "the registry (engines) imports the engine engines/brute"},
		{"engines/brute", "engines/global", "engine engines/brute imports engine engines/global"},
		{"monitor/fsm", "monitor/graph", "monitor monitor/fsm imports monitor monitor/graph"},
		{"monitor/atomicity", "monitor", "monitor monitor/atomicity imports monitor monitor"},
		{"monitor", "monitor/graph", "monitor monitor imports monitor monitor/graph"},
		{"monitor", "monitor/atomicity", "monitor monitor imports monitor monitor/atomicity"},
		{"monitor", "monitor/pass", "monitor monitor imports monitor monitor/pass"},
		{"monitor/atomicity", "monitor/pass", "monitor monitor/atomicity imports monitor monitor/pass"},
		{"monitor/pass", "monitor/graph", "monitor monitor/pass imports monitor monitor/graph"},
		{"profiles", "monitor", "profiles checks .conc programs but depends on the trace reader"},
		{"monitor/internal/txn", "trace", "monitor/internal/txn imports trace: the trace monitor's nodes and records import nothing of ours"},
		{"record/rt", "trace", "record/rt imports trace: the recorder's runtime and rewrite import the standard library only"},
		{"predict", "record", "predict imports record: only conc record's command uses the recorder"},
		{"record", "trace", "record imports trace: the recorder writes traces"},
		{"monitor/pass", "monitor/internal/txn", "monitor monitor/pass imports monitor monitor/internal/txn"},
		{"verify", "engines", "verify depends on engines"},
		{"internal/budget", "model", "internal/budget imports model: internal/* is the base floor"},
		{"report", "testkit/expect", "report imports the test kit testkit/expect"},
		{"report", "report/predicted", "report checks .conc programs but depends on the trace reader"},
		{"predict/internal/proj", "predict", "predict/internal/proj imports predict: the projection layer builds on"},
		{"predict/internal/chain", "predict", "predict/internal/chain imports predict: the chain search builds on"},
		{"predict/internal/nested", "predict", "predict/internal/nested imports predict: the linear two-thread decision builds on"},
		{"predict/internal/nested", "predict/internal/chain", "predict/internal/nested imports predict/internal/chain: the linear"},
		{"predict/internal/pair", "predict", "predict/internal/pair imports predict: the two-thread patterns build on"},
		{"predict/internal/pair", "predict/internal/chain", "predict/internal/pair imports predict/internal/chain: the two-thread patterns build on"},
		{"predict/internal/hb", "predict", "predict/internal/hb imports predict: the happens-before clocks build on"},
		{"predict/internal/observed", "predict", "predict/internal/observed imports predict: the observed-order finder builds on"},
		{"predict/internal/observed", "predict/internal/chain", "predict/internal/observed imports predict/internal/chain"},
		{"predict/internal/forkorder", "predict", "predict/internal/forkorder imports predict: the prefilter with fork order builds on"},
		{"predict/internal/blocks", "predict/internal/pair", "predict/internal/blocks imports predict/internal/pair: the block test builds on"},
		{"predict/internal/forkorder", "predict/internal/observed", "predict/internal/forkorder imports predict/internal/observed"},
		{"predict/internal/products", "predict", "predict/internal/products imports predict: the pairs' products build on"},
		{"predict/internal/products", "predict/internal/pair", "predict/internal/products imports predict/internal/pair"},
		{"predict/internal/sites", "predict", "predict/internal/sites imports predict: the signatures build on"},
		{"predict/internal/batch", "predict/internal/chain", "predict/internal/batch imports predict/internal/chain: the batches build on"},
		{"predict", "predict/all", "predict imports predict/all: --all builds on predict"},
		{"predict/internal/sites", "predict/all", "predict/internal/sites imports predict/all"},
		{"predict/internal/tuning", "model", "predict/internal/tuning imports model"},
	} {
		g := graph{"model": nil, "lang": {"model"}, "engines": {"model"}, "engines/brute": {"engines"},
			"engines/global": {"engines", "engines/profile"}, "engines/profile": {"engines"}, "monitor": {"trace"}, "monitor/atomicity": {"trace"},
			"monitor/fsm": {"model"}, "monitor/pass": {"trace", "monitor", "monitor/atomicity"}, "monitor/graph": {"model"}, "trace": {"model"}, "verify": {"model"}, "profiles": {"model"},
			"internal/budget": nil, "internal/progtree": nil, "gen": {"internal/progtree"}, "report": {"model"},
			"testkit/expect": {"engines", "verify", "internal/budget"}, "report/predicted": {"report", "monitor/atomicity", "trace"},
			"predict/internal/proj":      {"model", "profiles", "trace", "verify"},
			"predict/internal/chain":     {"predict/internal/proj", "model", "profiles", "trace"},
			"predict/internal/nested":    {"predict/internal/proj", "predict/internal/hb", "model", "trace"},
			"predict/internal/pair":      {"predict/internal/proj", "predict/internal/hb", "model", "profiles", "trace"},
			"predict/internal/hb":        {"predict/internal/proj", "model", "trace"},
			"predict/internal/observed":  {"predict/internal/proj", "predict/internal/hb", "monitor", "model", "trace"},
			"predict/internal/forkorder": {"predict/internal/proj", "predict/internal/hb", "predict/internal/chain", "model", "profiles", "trace"},
			"predict/internal/sites":     {"predict/internal/proj", "model", "profiles", "trace"},
			"predict/internal/batch":     {"predict/internal/proj", "model", "trace"},
			"predict/internal/products":  {"predict/internal/proj", "predict/internal/hb", "engines", "trace"},
			"predict/internal/tuning":    nil,
			"predict":                    {"predict/internal/proj", "predict/internal/tuning", "engines", "trace"},
			"predict/all":                {"predict", "predict/internal/proj", "predict/internal/batch", "predict/internal/sites", "trace"}}
		require.Empty(t, g.violations(), "the base graph keeps the rules")
		g[c.pkg] = append(g[c.pkg], c.imp)
		got := g.violations()
		require.NotEmpty(t, got, c.want)
		require.Contains(t, strings.Join(got, "\n"), c.want)
	}
}

// TestLayersCatchTests: the base floor holds in test files too, and test
// files may import the test kits.
func TestLayersCatchTests(t *testing.T) {
	tests := graph{"engines/global": {"testkit/shrink", "gen"}, "internal/progtree": {"internal/testflag"}}
	require.Empty(t, tests.testViolations(), "the base test graph keeps the rules")
	tests["internal/progtree"] = append(tests["internal/progtree"], "testkit/shrink")
	require.Equal(t, []string{"internal/progtree imports testkit/shrink: internal/* is the base floor, it imports only internal/* (in a test)"},
		tests.testViolations())
}
