// Package instr rewrites the Go files of a type-checked package so that
// they call the recorder's runtime (package record/rt, imported as
// _concrt) at every event docs/record.md lists. The rewrite only inserts
// and replaces text within lines, so line numbers are kept.
package instr

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is what a rewrite needs beyond the package.
type Config struct {
	RT      string          // import path of the runtime
	Root    string          // module root: LOCs are relative to it
	Atomic  []string        // --atomic patterns
	Include map[string]bool // import paths of the instrumented packages
	// Old: the module's go version is below 1.21, which calls of generic
	// functions need: each file is given the constraint go1.21, which
	// raises its language version.
	Old bool
}

// Counts are the constructs left out, by kind (docs/record.md).
type Counts map[string]int

// Add adds c's counts to n.
func (n Counts) Add(c Counts) {
	for k, v := range c {
		n[k] += v
	}
}

// String is "kind N, kind N" in the order of the kinds' names.
func (n Counts) String() string {
	var parts []string
	for _, k := range sortedKeys(n) {
		parts = append(parts, fmt.Sprintf("%s %d", k, n[k]))
	}
	return strings.Join(parts, ", ")
}

// file is the state of one file's rewrite.
type file struct {
	cfg    *Config
	fset   *token.FileSet
	info   *types.Info
	pkg    *types.Package
	ed     editor
	base   int // the file's offset in fset
	counts Counts
	temps  int    // names _concT1, … of go statements' temporaries
	fn     string // the function being rewritten ((*T).M, F), "" outside one
	used   bool
}

// Rewrite instruments one file of pkg; src is its text.
func Rewrite(cfg *Config, fset *token.FileSet, f *ast.File, src []byte, info *types.Info, pkg *types.Package) ([]byte, Counts) {
	r := &file{cfg: cfg, fset: fset, info: info, pkg: pkg, counts: Counts{}}
	r.ed.src = src
	r.base = fset.File(f.Pos()).Base()
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			r.funcDecl(fd)
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			r.varDecl(gd)
		}
	}
	r.ed.insert(r.off(f.Name.End()), "; import _concrt "+strconv.Quote(cfg.RT))
	r.ed.insert(len(src), "\nvar _ = _concrt.Finish\n")
	if cfg.Old {
		r.raiseVersion(f)
	}
	return r.ed.apply(), r.counts
}

// off is p's byte offset in the file.
func (r *file) off(p token.Pos) int { return int(p) - r.base }

// loc is the "path:line" of p, path relative to the module root, and
// the name of the function it is in: the code location a report shows.
func (r *file) loc(p token.Pos) string {
	pos := r.fset.Position(p)
	name := pos.Filename
	if rel, err := filepath.Rel(r.cfg.Root, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = rel
	}
	name = strings.NewReplacer("|", "_", "\n", "_", "\r", "_").Replace(filepath.ToSlash(name))
	name += ":" + strconv.Itoa(pos.Line)
	if r.fn != "" {
		name += " " + r.fn
	}
	return strconv.Quote(name)
}

// text is the source of n.
func (r *file) text(n ast.Node) string { return string(r.ed.src[r.off(n.Pos()):r.off(n.End())]) }

// skip counts a construct left out.
func (r *file) skip(kind string) { r.counts[kind]++ }

// funcDecl instruments a function: a transaction if it is marked, a test
// function's thread name, then its body.
func (r *file) funcDecl(fd *ast.FuncDecl) {
	r.fn = fd.Name.Name
	if names := localNames(fd); len(names) > 0 {
		r.fn = names[len(names)-1] // (*T).M for a pointer receiver
	}
	defer func() { r.fn = "" }()
	open := r.off(fd.Body.Lbrace) + 1
	if r.atomic(fd) {
		r.ed.insert(open, " _concrt.Begin("+r.loc(fd.Pos())+"); defer _concrt.End("+r.loc(fd.Body.Rbrace)+");")
	}
	if isTest(fd, r.fset) {
		l := r.loc(fd.Pos())
		r.ed.insert(open, " defer _concrt.TestEnd(_concrt.Test("+strconv.Quote(fd.Name.Name)+", "+l+"), "+r.loc(fd.Body.Rbrace)+");")
	}
	if fd.Recv == nil && fd.Name.Name == "TestMain" && strings.HasSuffix(r.fset.Position(fd.Pos()).Filename, "_test.go") {
		// A TestMain may return instead of calling os.Exit (which the
		// rewrite replaces): the trace is closed when it returns. Main
		// orders what it does before m.Run before the tests.
		r.ed.insert(open, " _concrt.Main(); defer _concrt.Finish();")
	}
	r.block(fd.Body.List)
}

// varDecl instruments the initial values of package-level variables.
func (r *file) varDecl(gd *ast.GenDecl) {
	for _, s := range gd.Specs {
		for _, v := range s.(*ast.ValueSpec).Values {
			r.expr(v, ctxRead)
		}
	}
}

// isTest tells a test function: TestXxx(t *testing.T) in a _test.go file.
func isTest(fd *ast.FuncDecl, fset *token.FileSet) bool {
	if fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") || fd.Name.Name == "TestMain" {
		return false
	}
	if !strings.HasSuffix(fset.Position(fd.Pos()).Filename, "_test.go") {
		return false
	}
	p := fd.Type.Params.List
	return len(p) == 1 && len(p[0].Names) <= 1 && typeText(p[0].Type) == "*testing.T"
}

func typeText(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		return "*" + typeText(s.X)
	}
	if s, ok := e.(*ast.SelectorExpr); ok {
		return typeText(s.X) + "." + s.Sel.Name
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// raiseVersion makes the file's language version go1.21: its //go:build
// line gets "&& go1.21", in place; a file without one starts with
// "//go:build go1.21" and a //line comment that gives the package
// clause's line its number back.
func (r *file) raiseVersion(f *ast.File) {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if expr, ok := strings.CutPrefix(c.Text, "//go:build "); ok {
				r.ed.replace(r.off(c.Pos()), r.off(c.End()), "//go:build ("+expr+") && go1.21")
				return
			}
		}
	}
	name := r.fset.Position(f.Pos()).Filename
	r.ed.insert(0, "//go:build go1.21\n\n//line "+name+":1\n")
}
