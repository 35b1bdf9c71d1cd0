package instr

import (
	"go/ast"
	"go/types"
	"strings"
)

// writes instruments the targets of an assignment or ++/--: their paths'
// reads, and after the statement one call per recorded target (of the
// read and the write when the statement reads it too: op=, ++, --).
func (r *file) writes(lhs []ast.Expr, alsoRead bool, s ast.Stmt, inList bool) {
	var post []string
	for _, e := range lhs {
		post = append(post, r.target(ast.Unparen(e), alsoRead, s)...)
	}
	if len(post) == 0 {
		return
	}
	if !inList {
		r.skip("write in a statement header")
		return
	}
	r.ed.insert(r.off(s.End()), "; "+strings.Join(post, "; "))
}

// target instruments one assignment target and returns the call that
// records its write (W, WI, MW), or its read and write (RW, RIW, MRW).
func (r *file) target(e ast.Expr, alsoRead bool, s ast.Stmt) []string {
	loc := r.loc(s.Pos())
	both := func(rw, wr string) []string {
		if alsoRead {
			return []string{rw}
		}
		return []string{wr}
	}
	if name, ok := r.pkgVar(e); ok {
		args := "(&" + r.text(e) + ", nil, " + quoteHint(name) + ", " + loc + ")"
		return both("_concrt.RW"+args, "_concrt.W"+args)
	}
	switch e := e.(type) {
	case *ast.SelectorExpr:
		sel := r.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			return nil
		}
		r.expr(e.X, r.holderCtx(sel.Recv()))
		f, ok := r.field(e)
		if !ok {
			r.skip("access through a call or a value")
			return nil
		}
		args := "(&" + r.text(e) + ", " + f.obj + ", " + quoteHint(f.hint) + ", " + loc + ")"
		return both("_concrt.RW"+args, "_concrt.W"+args)
	case *ast.IndexExpr:
		return r.indexTarget(e, both, loc)
	case *ast.StarExpr:
		r.expr(e.X, ctxRead)
		r.skip("access through a pointer")
	}
	return nil
}

func (r *file) indexTarget(e *ast.IndexExpr, both func(rd, wr string) []string, loc string) []string {
	t := r.under(e.X)
	r.expr(e.Index, ctxRead)
	if _, isMap := t.(*types.Map); isMap {
		r.expr(e.X, ctxRead)
		if !r.pure(e.X) {
			r.skip("access through a call or a value")
			return nil
		}
		args := "(" + r.text(e.X) + ", " + quoteHint(r.hint(e.X)) + ", " + loc + ")"
		return both("_concrt.MRW"+args, "_concrt.MW"+args)
	}
	r.expr(e.X, r.holderCtx(t))
	if !r.pure(e) || !r.elemAddressable(e) {
		r.skip("access through a call or a value")
		return nil
	}
	args := "(&" + r.text(e) + ", int(" + r.text(e.Index) + "), " + quoteHint(r.hint(e.X)) + ", " + loc + ")"
	return both("_concrt.RIW"+args, "_concrt.WI"+args)
}
