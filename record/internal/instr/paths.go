package instr

import (
	"go/ast"
	"go/types"
	"strconv"
)

// pure tells a path that can be evaluated twice without effect: names,
// field selections, dereferences and index expressions of such paths.
func (r *file) pure(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return r.pure(e.X)
	case *ast.SelectorExpr:
		return r.pure(e.X)
	case *ast.StarExpr:
		return r.pure(e.X)
	case *ast.IndexExpr:
		return r.pure(e.X) && r.pure(e.Index)
	}
	return false
}

// pkgVar tells a package-level variable of an instrumented package named
// by e (v or pkg.v) and returns its name "pkg.v".
func (r *file) pkgVar(e ast.Expr) (string, bool) {
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if _, isPkg := r.info.Uses[x].(*types.PkgName); isPkg {
				id = e.Sel
			}
		}
	}
	if id == nil {
		return "", false
	}
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !r.cfg.Include[v.Pkg().Path()] {
		return "", false
	}
	return v.Pkg().Name() + "." + v.Name(), true
}

// field describes a field selection x.f: obj is the text of a pointer
// to the struct that holds f (x, &x, or x.E for a promoted field), hint
// "pkg.T.f". ok is false for anything else, or when the holder has no
// address.
type field struct {
	obj, hint string
}

func (r *file) field(s *ast.SelectorExpr) (field, bool) {
	sel := r.info.Selections[s]
	if sel == nil || sel.Kind() != types.FieldVal || !r.pure(s.X) {
		return field{}, false
	}
	t, owner := sel.Recv(), r.text(s.X)
	_, addr := t.Underlying().(*types.Pointer)
	addr = addr || r.info.Types[s.X].Addressable()
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		f := structOf(t).Field(i)
		owner += "." + f.Name()
		t = f.Type()
		if _, p := t.Underlying().(*types.Pointer); p {
			addr = true
		}
	}
	hint := typeName(t) + "." + s.Sel.Name
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return field{obj: owner, hint: typeName(p.Elem()) + "." + s.Sel.Name}, true
	}
	if !addr {
		return field{}, false
	}
	return field{obj: "&" + owner, hint: hint}, true
}

func structOf(t types.Type) *types.Struct {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, _ := t.Underlying().(*types.Struct)
	return s
}

// typeName is "pkg.T" for a named type (pointers taken off), "struct"
// for others.
func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return "struct"
}

// hint names what e denotes, for the names of the maps, arrays and locks
// reached through it: "pkg.T.f" for a field, "pkg.v" for a package-level
// variable, the name of a local variable, "" otherwise.
func (r *file) hint(e ast.Expr) string {
	e = ast.Unparen(e)
	if name, ok := r.pkgVar(e); ok {
		return name
	}
	switch e := e.(type) {
	case *ast.SelectorExpr:
		if f, ok := r.field(e); ok {
			return f.hint
		}
		if x, ok := e.X.(*ast.Ident); ok { // another package's variable (os.Args)
			if pkg, ok := r.info.Uses[x].(*types.PkgName); ok {
				return pkg.Imported().Name() + "." + e.Sel.Name
			}
		}
	case *ast.Ident:
		return e.Name
	}
	return ""
}

func quoteHint(h string) string { return strconv.Quote(h) }

// under is the underlying type of e's type (pointers to arrays taken as
// arrays).
func (r *file) under(e ast.Expr) types.Type {
	t := r.info.TypeOf(e)
	if t == nil {
		return nil
	}
	return t.Underlying()
}
