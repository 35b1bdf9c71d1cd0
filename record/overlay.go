package record

import (
	"encoding/json"
	"go/ast"
	"go/version"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/conc-dev/conc/record/internal/instr"
	"golang.org/x/tools/go/packages"
)

// Target is one test binary to run: a package with its tests.
type Target struct {
	Path    string       // import path
	Dir     string       // its directory
	Skipped instr.Counts // what its files left out
	name    string       // its package name (not the external test's)
	tests   bool         // it has _test.go files
	proper  bool         // it has files besides its tests
	main    bool         // it declares TestMain
}

// overlay rewrites the packages' files into tmp and writes
// tmp/overlay.json (go build's -overlay): each rewritten file, the
// runtime in the module, and a TestMain for each package that has none.
// It returns the test binaries to run, in the order of the packages.
func overlay(tmp, root, modPath string, pkgs []*packages.Package, atomic []string) ([]*Target, string, error) {
	repl := map[string]string{}
	cfg := &instr.Config{RT: modPath + "/" + rtDir, Root: root, Atomic: atomic, Include: map[string]bool{}}
	for _, p := range pkgs {
		cfg.Include[p.PkgPath] = true
		if p.Module != nil && p.Module.GoVersion != "" && version.Compare("go"+p.Module.GoVersion, "go1.21") < 0 {
			cfg.Old = true
		}
	}
	byPath := map[string]*Target{}
	var targets []*Target
	for _, p := range pkgs {
		key := p.PkgPath
		if p.ForTest != "" {
			key = p.ForTest
		}
		t := byPath[key]
		if t == nil {
			t = &Target{Path: key, Skipped: instr.Counts{}}
			byPath[key] = t
			targets = append(targets, t)
		}
		if !strings.HasSuffix(p.Name, "_test") || t.name == "" {
			t.name = p.Name
		}
		if err := rewritePkg(tmp, cfg, p, t, repl); err != nil {
			return nil, "", err
		}
	}
	if err := addRuntime(tmp, root, repl); err != nil {
		return nil, "", err
	}
	for _, t := range targets {
		if err := addFiles(tmp, t, cfg.RT, repl); err != nil {
			return nil, "", err
		}
	}
	path := filepath.Join(tmp, "overlay.json")
	b, err := json.Marshal(map[string]any{"Replace": repl})
	if err == nil {
		err = os.WriteFile(path, b, 0o644)
	}
	return targets, path, err
}

// rewritePkg rewrites p's files into tmp/src.
func rewritePkg(tmp string, cfg *instr.Config, p *packages.Package, t *Target, repl map[string]string) error {
	for _, f := range p.Syntax {
		name := p.Fset.Position(f.Pos()).Filename
		if _, done := repl[name]; done {
			continue
		}
		t.Dir = filepath.Dir(name)
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		out, skipped := instr.Rewrite(cfg, p.Fset, f, src, p.TypesInfo, p.Types)
		t.Skipped.Add(skipped)
		dst := filepath.Join(tmp, "src", strconv.Itoa(len(repl))+"_"+filepath.Base(name))
		if err := writeFile(dst, out); err != nil {
			return err
		}
		repl[name] = dst
		t.main = t.main || declares(f, "TestMain")
		t.tests = t.tests || strings.HasSuffix(name, "_test.go")
		t.proper = t.proper || !strings.HasSuffix(name, "_test.go")
	}
	return nil
}

// addRuntime overlays the runtime's files into root/concrecord_rt.
func addRuntime(tmp, root string, repl map[string]string) error {
	files, err := runtimeFiles()
	if err != nil {
		return err
	}
	for name, b := range files {
		dst := filepath.Join(tmp, "rt", name)
		if err := writeFile(dst, b); err != nil {
			return err
		}
		repl[filepath.Join(root, rtDir, name)] = dst
	}
	return nil
}

// addFiles adds the recorder's own files to a test binary's package.
func addFiles(tmp string, t *Target, rt string, repl map[string]string) error {
	if !t.tests {
		return nil
	}
	if !t.main {
		if err := addTestMain(tmp, t, rt, repl); err != nil {
			return err
		}
	}
	if t.proper {
		return addGetg(tmp, t, rt, repl)
	}
	return nil
}

// addTestMain gives a test binary a TestMain that closes the trace: a
// test binary without one exits from the testing package, where nothing
// of the recorder runs.
func addTestMain(tmp string, t *Target, rt string, repl map[string]string) error {
	src := "package " + t.name + "\n\nimport (\n\t\"testing\"\n\n\t_concrt " + strconv.Quote(rt) + ")\n\n" +
		"func TestMain(m *testing.M) { _concrt.Main(); _concrt.Exit(m.Run()) }\n"
	dst := filepath.Join(tmp, "src", strconv.Itoa(len(repl))+"_main_test.go")
	if err := writeFile(dst, []byte(src)); err != nil {
		return err
	}
	repl[filepath.Join(t.Dir, "zz_concrecord_main_test.go")] = dst
	return nil
}

func declares(f *ast.File, name string) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return true
		}
	}
	return false
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
