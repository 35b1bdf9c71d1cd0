package instr

import (
	"go/ast"
	"go/token"
	"go/types"
)

// How an expression is used.
type ctx int

const (
	ctxRead ctx = iota // its value is read
	ctxAddr            // its address is taken, or it holds a field or element used: only its parts are read
)

// expr instruments e: every read of a recorded variable in it.
func (r *file) expr(e ast.Expr, c ctx) {
	switch e := e.(type) {
	case nil:
	case *ast.Ident:
		if c == ctxRead {
			r.readVar(e)
		}
	case *ast.ParenExpr:
		r.expr(e.X, c)
	case *ast.SelectorExpr:
		r.selector(e, c)
	case *ast.IndexExpr:
		r.index(e, c)
	case *ast.StarExpr:
		r.expr(e.X, ctxRead)
	case *ast.UnaryExpr:
		r.unary(e)
	case *ast.BinaryExpr:
		r.expr(e.X, ctxRead)
		r.expr(e.Y, ctxRead)
	case *ast.CallExpr:
		r.call(e)
	case *ast.SliceExpr:
		r.sliced(e.X)
		r.expr(e.Low, ctxRead)
		r.expr(e.High, ctxRead)
		r.expr(e.Max, ctxRead)
	case *ast.TypeAssertExpr:
		r.expr(e.X, ctxRead)
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			r.expr(el, ctxRead)
		}
	case *ast.KeyValueExpr:
		if _, isMap := r.under(e).(*types.Map); isMap {
			r.expr(e.Key, ctxRead)
		}
		r.expr(e.Value, ctxRead)
	case *ast.FuncLit:
		r.block(e.Body.List)
	}
}

// readVar records a read of a package-level variable (v or pkg.v).
func (r *file) readVar(e ast.Expr) bool {
	name, ok := r.pkgVar(e)
	if ok {
		r.ed.wrap(r.off(e.Pos()), r.off(e.End()), "(*_concrt.R(&", ", nil, "+quoteHint(name)+", "+r.loc(e.Pos())+"))")
	}
	return ok
}

func (r *file) selector(e *ast.SelectorExpr, c ctx) {
	if _, isPkg := r.pkgVar(e); isPkg {
		if c == ctxRead {
			r.readVar(e)
		}
		return
	}
	sel := r.info.Selections[e]
	if sel == nil { // a qualified name that is not a variable
		return
	}
	if sel.Kind() != types.FieldVal {
		r.expr(e.X, ctxAddr) // a method value: its receiver is not recorded
		return
	}
	r.expr(e.X, r.holderCtx(sel.Recv()))
	if c != ctxRead {
		return
	}
	if f, ok := r.field(e); ok {
		r.ed.wrap(r.off(e.Pos()), r.off(e.End()), "(*_concrt.R(&", ", "+f.obj+", "+quoteHint(f.hint)+", "+r.loc(e.Pos())+"))")
	} else {
		r.skip("access through a call or a value")
	}
}

// holderCtx is how the operand of a selection or index of type t is
// used: a pointer (or slice) is read, a struct or array value only
// holds what is selected.
func (r *file) holderCtx(t types.Type) ctx {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return ctxAddr
	}
	return ctxRead
}

func (r *file) index(e *ast.IndexExpr, c ctx) {
	t := r.under(e.X)
	if t == nil || r.info.Types[e.X].IsType() {
		return
	}
	if _, isFunc := t.(*types.Signature); isFunc { // an instantiation f[T]
		return
	}
	r.expr(e.Index, ctxRead)
	if _, isMap := t.(*types.Map); isMap {
		if c == ctxRead && r.pure(e.X) { // MR wraps X's own read: first
			r.ed.wrap(r.off(e.X.Pos()), r.off(e.X.End()), "_concrt.MR(", ", "+quoteHint(r.hint(e.X))+", "+r.loc(e.Pos())+")")
		}
		r.expr(e.X, ctxRead)
		return
	}
	r.expr(e.X, r.holderCtx(t))
	if c != ctxRead {
		return
	}
	if _, isStr := t.(*types.Basic); isStr {
		return
	}
	if r.pure(e) && r.elemAddressable(e) {
		r.ed.wrap(r.off(e.Pos()), r.off(e.End()), "(*_concrt.RI(&", ", int("+r.text(e.Index)+"), "+quoteHint(r.hint(e.X))+", "+r.loc(e.Pos())+"))")
	} else {
		r.skip("access through a call or a value")
	}
}

// elemAddressable tells an element whose address can be taken.
func (r *file) elemAddressable(e *ast.IndexExpr) bool {
	return r.info.Types[e].Addressable()
}

// sliced instruments the operand of a slice expression: a slice or
// string is read (its header), an array only held.
func (r *file) sliced(x ast.Expr) {
	r.expr(x, r.holderCtx(r.info.TypeOf(x)))
}

func (r *file) unary(e *ast.UnaryExpr) {
	switch e.Op {
	case token.AND:
		r.expr(e.X, ctxAddr)
	case token.ARROW:
		r.expr(e.X, ctxRead)
		if !r.pure(e.X) {
			r.skip("channel through a call")
			return
		}
		r.ed.replace(r.off(e.Pos()), r.off(e.X.Pos()), "_concrt.Recv(")
		r.ed.insert(r.off(e.X.End()), ", "+r.loc(e.Pos())+")")
	default:
		r.expr(e.X, ctxRead)
	}
}

// commaOkRecv rewrites v, ok := <-ch (or =, or var) as a call of Recv2.
func (r *file) commaOkRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	r.expr(u.X, ctxRead)
	if !r.pure(u.X) {
		r.skip("channel through a call")
		return true
	}
	r.ed.replace(r.off(u.Pos()), r.off(u.X.Pos()), "_concrt.Recv2(")
	r.ed.insert(r.off(u.X.End()), ", "+r.loc(u.Pos())+")")
	return true
}
