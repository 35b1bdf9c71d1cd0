package instr

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// goStmt records a go statement as fork(gN) and names the new goroutine.
// go func(…){…}(args) starts its body with Start; any other call is
// evaluated into temporaries first (as the go statement would) and run
// by a function literal, written from the original text: reads in its
// operands are not recorded.
func (r *file) goStmt(s *ast.GoStmt) {
	r.temps++
	t := "_concT" + strconv.Itoa(r.temps)
	fork := t + " := _concrt.Fork(" + r.loc(s.Pos()) + "); "
	if lit, ok := ast.Unparen(s.Call.Fun).(*ast.FuncLit); ok {
		r.exprs(s.Call.Args)
		r.ed.insert(r.off(s.Pos()), fork)
		r.ed.insert(r.off(lit.Body.Lbrace)+1, " _concrt.Start("+t+");")
		r.block(lit.Body.List)
		return
	}
	call, ok := r.goCall(s.Call, t)
	if !ok {
		r.skip("go statement")
		r.expr(s.Call, ctxRead)
		return
	}
	r.ed.replace(r.off(s.Pos()), r.off(s.End()), call[0]+fork+"go func() { _concrt.Start("+t+"); "+call[1]+" }()")
}

// goCall splits go f(a, b) into "tF, tA0, tA1 := f, a, b; " and the call
// "tF(tA0, tA1)". Constants stay in the call (a temporary would take
// their default type); a generic function, a builtin or a multi-value
// argument is not split (ok false).
func (r *file) goCall(c *ast.CallExpr, t string) ([2]string, bool) {
	if r.builtin(c) != "" || r.info.Types[c.Fun].IsType() {
		return [2]string{}, false
	}
	if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
		if _, generic := r.info.Instances[id]; generic {
			return [2]string{}, false
		}
	}
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		if _, generic := r.info.Instances[sel.Sel]; generic {
			return [2]string{}, false
		}
	}
	names, vals := []string{t + "F"}, []string{r.text(c.Fun)}
	var args []string
	for i, a := range c.Args {
		if tv := r.info.Types[a]; tv.Value != nil {
			args = append(args, r.text(a))
			continue
		}
		if _, tuple := r.info.TypeOf(a).(*types.Tuple); tuple {
			return [2]string{}, false
		}
		n := t + "A" + strconv.Itoa(i)
		names, vals, args = append(names, n), append(vals, r.text(a)), append(args, n)
	}
	call := t + "F(" + strings.Join(args, ", ")
	if c.Ellipsis.IsValid() {
		call += "..."
	}
	return [2]string{strings.Join(names, ", ") + " := " + strings.Join(vals, ", ") + "; ", call + ")"}, true
}

// send records ch <- v: SendPre posts before it, SendPost waits after
// it (chans.go in the runtime). A typed value is evaluated first into a
// temporary, so that its reads come before the post, as they come before
// the send.
func (r *file) send(s *ast.SendStmt, inList bool) {
	r.expr(s.Chan, ctxRead)
	r.expr(s.Value, ctxRead)
	if !inList || !r.pure(s.Chan) {
		r.skip("channel send")
		return
	}
	ch, loc := r.text(s.Chan), r.loc(s.Pos())
	pre := "_concrt.SendPre(" + ch + ", " + loc + "); "
	post := "; _concrt.SendPost(" + ch + ", " + loc + ")"
	if t, ok := r.info.TypeOf(s.Value).(*types.Basic); !ok || t.Info()&types.IsUntyped == 0 {
		r.temps++
		v := "_concV" + strconv.Itoa(r.temps)
		r.ed.replace(r.off(s.Chan.Pos()), r.off(s.Value.Pos()), v+" := ")
		r.ed.insert(r.off(s.End()), "; "+pre+ch+" <- "+v+post)
		return
	}
	r.ed.insert(r.off(s.Pos()), pre)
	r.ed.insert(r.off(s.End()), post)
}

// rangeStmt instruments a range loop; over a channel it becomes
// for { v, ok := Recv2(ch); if !ok { break }; … }.
func (r *file) rangeStmt(s *ast.RangeStmt) {
	if _, isChan := r.under(s.X).(*types.Chan); !isChan {
		if _, isMap := r.under(s.X).(*types.Map); isMap {
			r.wrapMapRead(s.X)
			r.expr(s.X, ctxRead)
		} else {
			r.sliced(s.X)
		}
		r.block(s.Body.List)
		return
	}
	if !r.pure(s.X) || (s.Key != nil && s.Tok != token.DEFINE && !isIdent(s.Key)) {
		r.skip("range over a channel")
		r.block(s.Body.List)
		return
	}
	v, tok := "_", ":="
	if s.Key != nil {
		v, tok = r.text(s.Key), s.Tok.String()
	}
	head := "for { " + v + ", _concOK := _concrt.Recv2(" + r.text(s.X) + ", " + r.loc(s.Pos()) + "); if !_concOK { break };"
	if tok == "=" {
		r.temps++
		tmp := "_concV" + strconv.Itoa(r.temps)
		head = "for { " + tmp + ", _concOK := _concrt.Recv2(" + r.text(s.X) + ", " + r.loc(s.Pos()) + "); if !_concOK { break }; " + v + " = " + tmp + ";"
	}
	r.ed.replace(r.off(s.Pos()), r.off(s.Body.Lbrace)+1, head)
	r.block(s.Body.List)
}
