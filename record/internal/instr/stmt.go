package instr

import (
	"go/ast"
	"go/token"
	"go/types"
)

// block instruments a statement list: statements in a list may be
// followed by the lines that record their writes.
func (r *file) block(list []ast.Stmt) {
	for _, s := range list {
		r.stmt(s, true)
	}
}

// stmt instruments s; inList: s stands in a statement list, so text may
// follow it (for, if and switch headers are not).
func (r *file) stmt(s ast.Stmt, inList bool) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		r.block(s.List)
	case *ast.ExprStmt:
		r.exprStmt(s)
	case *ast.AssignStmt:
		r.assign(s, inList)
	case *ast.IncDecStmt:
		r.writes([]ast.Expr{s.X}, true, s, inList)
	case *ast.GoStmt:
		r.goStmt(s)
	case *ast.DeferStmt:
		r.expr(s.Call, ctxRead)
	case *ast.ReturnStmt:
		r.exprs(s.Results)
	case *ast.SendStmt:
		r.send(s, inList)
	case *ast.DeclStmt:
		r.declStmt(s)
	case *ast.LabeledStmt:
		r.stmt(s.Stmt, inList)
	case *ast.IfStmt:
		r.header(s.Init)
		r.expr(s.Cond, ctxRead)
		r.block(s.Body.List)
		if s.Else != nil {
			r.stmt(s.Else, false)
		}
	case *ast.ForStmt:
		r.header(s.Init)
		r.expr(s.Cond, ctxRead)
		r.header(s.Post)
		r.block(s.Body.List)
	case *ast.RangeStmt:
		r.rangeStmt(s)
	case *ast.SwitchStmt:
		r.header(s.Init)
		r.expr(s.Tag, ctxRead)
		r.clauses(s.Body)
	case *ast.TypeSwitchStmt:
		r.header(s.Init)
		r.header(s.Assign)
		r.clauses(s.Body)
	case *ast.SelectStmt:
		r.skip("select")
		for _, c := range s.Body.List {
			r.selectCase(c.(*ast.CommClause))
			r.block(c.(*ast.CommClause).Body)
		}
	}
}

// selectCase passes the channel of a select case through Unpaired: a
// select's send or receive is not numbered, so from then on the
// channel's sends and receives can no longer be paired by their numbers
// and the runtime writes no more messages for them (and no send waits
// for a receive that a select may have made).
func (r *file) selectCase(c *ast.CommClause) {
	var ch ast.Expr
	switch s := c.Comm.(type) {
	case *ast.SendStmt:
		ch = s.Chan
	case *ast.ExprStmt:
		ch = recvOperand(s.X)
	case *ast.AssignStmt:
		ch = recvOperand(s.Rhs[0])
	}
	if ch != nil {
		r.ed.wrap(r.off(ch.Pos()), r.off(ch.End()), "_concrt.Unpaired(", ", "+r.loc(ch.Pos())+")")
	}
}

// recvOperand is ch of the receive <-ch, nil for any other expression.
func recvOperand(e ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// header instruments the init or post statement of a for, if or switch.
func (r *file) header(s ast.Stmt) {
	if s != nil {
		r.stmt(s, false)
	}
}

func (r *file) clauses(b *ast.BlockStmt) {
	for _, c := range b.List {
		cc := c.(*ast.CaseClause)
		r.exprs(cc.List)
		r.block(cc.Body)
	}
}

func (r *file) exprs(list []ast.Expr) {
	for _, e := range list {
		r.expr(e, ctxRead)
	}
}

func (r *file) declStmt(s *ast.DeclStmt) {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return
	}
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		if len(vs.Names) == 2 && len(vs.Values) == 1 && r.commaOkRecv(vs.Values[0]) {
			continue
		}
		r.exprs(vs.Values)
	}
}

// exprStmt instruments an expression statement: delete and clear write
// their map.
func (r *file) exprStmt(s *ast.ExprStmt) {
	r.expr(s.X, ctxRead)
	call, ok := s.X.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return
	}
	if b := r.builtin(call); b == "delete" || b == "clear" {
		if _, isMap := r.under(call.Args[0]).(*types.Map); isMap && r.pure(call.Args[0]) {
			r.ed.insert(r.off(s.End()), "; _concrt.MW("+r.text(call.Args[0])+", "+quoteHint(r.hint(call.Args[0]))+", "+r.loc(s.Pos())+")")
		}
	}
}

// assign instruments an assignment: the right side's reads, the left
// side's paths, and after the statement its writes (for op= also the
// read of each target).
func (r *file) assign(s *ast.AssignStmt, inList bool) {
	if len(s.Lhs) != 2 || len(s.Rhs) != 1 || !r.commaOkRecv(s.Rhs[0]) {
		r.exprs(s.Rhs)
	}
	if s.Tok == token.DEFINE {
		return
	}
	r.writes(s.Lhs, s.Tok != token.ASSIGN, s, inList)
}
