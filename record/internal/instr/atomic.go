package instr

import (
	"go/ast"
	"path"
	"sort"
	"strings"
)

// Marker is the line of a doc comment that makes a function a
// transaction.
const Marker = "//conc:atomic"

// atomic tells whether fd is a transaction: its doc comment has a line
// //conc:atomic, or an --atomic pattern matches one of its names.
func (r *file) atomic(fd *ast.FuncDecl) bool {
	if fd.Doc != nil {
		for _, c := range fd.Doc.List {
			if strings.TrimSpace(c.Text) == Marker {
				return true
			}
		}
	}
	for _, pat := range r.cfg.Atomic {
		for _, name := range funcNames(fd, r.pkg.Name(), r.pkg.Path()) {
			if ok, _ := path.Match(pat, name); ok {
				return true
			}
		}
	}
	return false
}

// funcNames are the names a pattern may use for fd: F, pkg.F and
// path/pkg.F for a function; (*T).M, T.M and the same with pkg. or the
// import path before them for a method.
func funcNames(fd *ast.FuncDecl, pkg, importPath string) []string {
	local := localNames(fd)
	names := append([]string{}, local...)
	for _, l := range local {
		names = append(names, pkg+"."+l, importPath+"."+l)
	}
	return names
}

// localNames are fd's names within its package: F, or T.M and, for a
// pointer receiver, (*T).M last; nil for a receiver it cannot name.
func localNames(fd *ast.FuncDecl) []string {
	local := []string{fd.Name.Name}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		star := false
		if s, ok := t.(*ast.StarExpr); ok {
			t, star = s.X, true
		}
		switch x := t.(type) { // generic receivers T[P]: the type's name
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		id, _ := t.(*ast.Ident)
		if id == nil {
			return nil
		}
		local = []string{id.Name + "." + fd.Name.Name}
		if star {
			local = append(local, "(*"+id.Name+")."+fd.Name.Name)
		}
	}
	return local
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
