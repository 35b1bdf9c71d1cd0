package record

import (
	"fmt"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadMode is what the rewrite needs: syntax and types of every package
// and its tests.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule | packages.NeedImports |
	packages.NeedForTest

// InputError is bad input: packages that do not load or build, or that
// use cgo. Its message names the file and line.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// load type-checks the named packages with their tests in dir. It returns
// the packages to rewrite: each package's test variant (its files and its
// _test.go files) and external test package, the plain variants dropped.
func load(dir string, patterns []string) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, &InputError{err.Error()}
	}
	if err := loadErrors(pkgs); err != nil {
		return nil, err
	}
	return pickVariants(pkgs), nil
}

// loadErrors gathers the packages' errors, each "file:line: message"
// (the parser's and type checker's, else the go command's).
func loadErrors(pkgs []*packages.Package) error {
	seen := map[string]bool{}
	var msgs, listMsgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if m := strings.TrimPrefix(e.Error(), "-: "); !seen[m] { // "-": no position
				seen[m] = true
				if e.Kind == packages.ListError {
					listMsgs = append(listMsgs, m)
				} else {
					msgs = append(msgs, m)
				}
			}
		}
	})
	if len(msgs) == 0 { // the go command's own messages repeat the type checker's
		msgs = listMsgs
	}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			if err := cgoError(f); err != nil && !seen[err.Error()] {
				seen[err.Error()] = true
				msgs = append(msgs, err.Error())
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	sort.Strings(msgs)
	return &InputError{strings.Join(msgs, "\n")}
}

// cgoError refuses a file that imports "C": the compiler builds its
// code from files cgo generates, which the rewrite does not see.
func cgoError(name string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
	if err != nil {
		return nil // the type check reports it
	}
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "C" {
			pos := fset.Position(imp.Pos())
			return fmt.Errorf("%s:%d: cgo (import \"C\") cannot be recorded", pos.Filename, pos.Line)
		}
	}
	return nil
}

// pickVariants keeps, for each package, the variant that holds the most
// files (the test variant when there are tests), and external test
// packages; generated test mains are dropped.
func pickVariants(pkgs []*packages.Package) []*packages.Package {
	best := map[string]*packages.Package{}
	var order []string
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") || p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") {
			continue
		}
		key := p.PkgPath
		if cur, ok := best[key]; !ok {
			order = append(order, key)
			best[key] = p
		} else if len(p.GoFiles) > len(cur.GoFiles) {
			best[key] = p
		}
	}
	out := make([]*packages.Package, 0, len(order))
	for _, k := range order {
		out = append(out, best[k])
	}
	return out
}
