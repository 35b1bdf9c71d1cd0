// Package record is `conc record`: it instruments Go packages' source
// (package instr), builds and runs their tests with the instrumented
// files laid over the originals (go test -overlay: the user's files are
// never written), and collects the STD trace each test binary writes
// through the runtime (package rt). docs/record.md says what is recorded.
package record

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Options are conc record's flags and arguments.
type Options struct {
	Dir      string   // where the packages are (the go command's working directory)
	Out      string   // where the traces go
	Atomic   []string // --atomic patterns
	Rapid    bool     // plain STD, no extension ops
	Patterns []string // the packages
	GoFlags  []string // flags for go test (after --)
	Stdout   io.Writer
	Stderr   io.Writer
}

// Result is one test binary's trace.
type Result struct {
	Target *Target
	Trace  string // its path; "" when the binary wrote none
	Stats  Stats
}

// Run records the packages' tests. It returns the traces and the exit
// status of the first test binary that failed (0 if none did); an
// InputError for packages that do not load.
func Run(o Options) ([]Result, int, error) {
	pkgs, err := load(o.Dir, o.Patterns)
	if err != nil {
		return nil, 0, err
	}
	root, modPath, err := mainModule(pkgs)
	if err != nil {
		return nil, 0, err
	}
	tmp, err := os.MkdirTemp("", "conc-record-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(tmp)
	targets, ov, err := overlay(tmp, root, modPath, pkgs, o.Atomic)
	if err != nil {
		return nil, 0, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, 0, err
	}
	var results []Result
	status := 0
	for _, t := range targets {
		if !t.tests {
			continue
		}
		res, code, err := runTarget(o, t, ov)
		if err != nil {
			return results, 0, err
		}
		results = append(results, res)
		if status == 0 {
			status = code
		}
	}
	return results, status, nil
}

// mainModule is the module of the packages: its root and path. Packages
// of other modules (or of none) are refused.
func mainModule(pkgs []*packages.Package) (string, string, error) {
	if len(pkgs) == 0 {
		return "", "", &InputError{"no packages to record"}
	}
	var root, path string
	for _, p := range pkgs {
		m := p.Module
		if m == nil || !m.Main {
			return "", "", &InputError{fmt.Sprintf("%s: not in the main module; conc record instruments the main module's packages", p.PkgPath)}
		}
		root, path = m.Dir, m.Path
	}
	return root, path, nil
}

// runTarget runs one test binary with the overlay and finishes its trace.
func runTarget(o Options, t *Target, ov string) (Result, int, error) {
	name := strings.NewReplacer("/", "_", "\\", "_").Replace(t.Path) + ".std.gz"
	trace, err := filepath.Abs(filepath.Join(o.Out, name))
	if err != nil {
		return Result{}, 0, err
	}
	os.Remove(trace)
	args := append([]string{"test", "-overlay=" + ov, "-vet=off", "-count=1"}, o.GoFlags...)
	cmd := exec.Command("go", append(args, t.Path)...)
	cmd.Dir = o.Dir
	cmd.Stdout, cmd.Stderr = o.Stdout, o.Stderr
	cmd.Env = append(os.Environ(), "CONC_RECORD_TRACE="+trace, "CONC_RECORD_RAPID="+boolEnv(o.Rapid))
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return Result{}, 0, err
		}
		code = exit.ExitCode()
	}
	res := Result{Target: t}
	if _, err := os.Stat(trace); err != nil {
		return res, code, nil // the binary never started (a build failure)
	}
	res.Trace = filepath.Join(o.Out, name)
	res.Stats, err = finishTrace(trace)
	return res, code, err
}

func boolEnv(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
