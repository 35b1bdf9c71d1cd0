package instr

import (
	"go/ast"
	"go/types"
	"strings"
)

// The sync methods the runtime records, by full name, and the runtime
// function that stands for each. The Mutex and RWMutex ones take the
// lock's address, its holder and its hint (see paths.go).
var syncCalls = map[string]string{
	"(*sync.Mutex).Lock":       "Lock",
	"(*sync.Mutex).Unlock":     "Unlock",
	"(*sync.Mutex).TryLock":    "TryLock",
	"(*sync.RWMutex).Lock":     "WLock",
	"(*sync.RWMutex).Unlock":   "WUnlock",
	"(*sync.RWMutex).TryLock":  "TryWLock",
	"(*sync.RWMutex).RLock":    "RLock",
	"(*sync.RWMutex).RUnlock":  "RUnlock",
	"(*sync.RWMutex).TryRLock": "TryRLock",
	"(*sync.WaitGroup).Add":    "WGAdd",
	"(*sync.WaitGroup).Done":   "WGDone",
	"(*sync.WaitGroup).Wait":   "WGWait",
	"(*sync.WaitGroup).Go":     "WGGo",
	"(*sync.Once).Do":          "OnceDo",
	"(*sync.Cond).Wait":        "CondWait",
	"(*sync.Cond).Signal":      "CondSignal",
	"(*sync.Cond).Broadcast":   "CondBroadcast",
}

// Calls the runtime does not record, counted by kind.
var skipped = map[string]string{
	"(sync.Locker).Lock":         "sync.Locker",
	"(sync.Locker).Unlock":       "sync.Locker",
	"(*sync.Map).Load":           "sync.Map",
	"(*sync.Map).Store":          "sync.Map",
	"(*sync.Map).LoadOrStore":    "sync.Map",
	"(*sync.Map).LoadAndDelete":  "sync.Map",
	"(*sync.Map).Delete":         "sync.Map",
	"(*sync.Map).Range":          "sync.Map",
	"(*sync.Map).Swap":           "sync.Map",
	"(*sync.Map).CompareAndSwap": "sync.Map",
}

// call instruments a call: the sync methods and builtins the runtime
// records are rewritten, other calls only have their operands read.
func (r *file) call(e *ast.CallExpr) {
	if tv := r.info.Types[e.Fun]; tv.IsType() { // a conversion
		r.exprs(e.Args)
		return
	}
	if fn := r.callee(e); fn != nil {
		name := fn.FullName()
		if rt, ok := syncCalls[name]; ok {
			r.syncCall(e, rt)
			return
		}
		if kind, ok := skipped[name]; ok {
			r.skip(kind)
		} else if fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" {
			r.skip("sync/atomic")
		} else if name == "os.Exit" {
			// The trace is closed before the exit: os.Exit(_concrt.Closing(code)).
			// The call itself stays, so that the file's import of os stays
			// used.
			r.exprs(e.Args)
			r.ed.wrap(r.off(e.Args[0].Pos()), r.off(e.Args[0].End()), "_concrt.Closing(", ")")
			return
		}
	}
	switch r.builtin(e) {
	case "len", "cap":
		if _, isMap := r.under(e.Args[0]).(*types.Map); isMap {
			r.wrapMapRead(e.Args[0])
			r.expr(e.Args[0], ctxRead)
			return
		}
	case "close":
		r.expr(e.Args[0], ctxRead)
		r.ed.replace(r.off(e.Fun.Pos()), r.off(e.Fun.End()), "_concrt.Close")
		r.ed.insert(r.off(e.Rparen), ", "+r.loc(e.Pos()))
		return
	}
	r.expr(e.Fun, ctxRead)
	r.exprs(e.Args)
}

func (r *file) wrapMapRead(m ast.Expr) {
	if r.pure(m) {
		r.ed.wrap(r.off(m.Pos()), r.off(m.End()), "_concrt.MR(", ", "+quoteHint(r.hint(m))+", "+r.loc(m.Pos())+")")
	}
}

// callee is the function or method e calls, nil for a builtin or a
// function value.
func (r *file) callee(e *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(e.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return nil
	}
	fn, _ := r.info.Uses[id].(*types.Func)
	return fn
}

// builtin is the name of the builtin e calls, "" if none.
func (r *file) builtin(e *ast.CallExpr) string {
	if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := r.info.Uses[id].(*types.Builtin); ok {
			return b.Name()
		}
	}
	return ""
}

// syncCall rewrites x.M(args) as _concrt.RT(&x, holder, hint, args…, loc)
// (WaitGroup and Once: _concrt.RT(&x, args…, loc); WGAdd has no loc).
func (r *file) syncCall(e *ast.CallExpr, rt string) {
	sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
	if !ok || !r.pure(sel.X) {
		r.skip("sync call through a call or a method value")
		r.expr(e.Fun, ctxRead)
		r.exprs(e.Args)
		return
	}
	recv, obj, hint := r.receiver(sel)
	r.exprs(e.Args)
	head := "_concrt." + rt + "(" + recv
	if !strings.HasPrefix(rt, "WG") && rt != "OnceDo" {
		head += ", " + obj + ", " + quoteHint(hint)
	}
	if len(e.Args) > 0 {
		head += ", "
	}
	r.ed.replace(r.off(sel.Pos()), r.off(e.Lparen)+1, head)
	if rt != "WGAdd" {
		r.ed.insert(r.off(e.Rparen), ", "+r.loc(e.Pos()))
	}
}

// receiver is the pointer to the sync object a method call sel acts on,
// with the holder and hint that name it (docs/record.md): the field that
// holds it, a package-level variable, or nil and "" (named by its kind).
func (r *file) receiver(sel *ast.SelectorExpr) (recv, obj, hint string) {
	s := r.info.Selections[sel]
	t, path := s.Recv(), r.text(sel.X)
	holder, holderT, fieldName := "", types.Type(nil), ""
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		f := structOf(t).Field(i)
		holder, holderT, fieldName = path, t, f.Name()
		path += "." + f.Name()
		t = f.Type()
	}
	recv = "&" + path
	if _, p := t.Underlying().(*types.Pointer); p {
		recv = path
	}
	switch {
	case holderT != nil:
		obj = "&" + holder
		if _, p := holderT.Underlying().(*types.Pointer); p {
			obj = holder
		}
		return recv, obj, typeName(holderT) + "." + fieldName
	case isSelector(sel.X):
		if name, ok := r.pkgVar(ast.Unparen(sel.X)); ok {
			return recv, "nil", name
		}
		if f, ok := r.field(ast.Unparen(sel.X).(*ast.SelectorExpr)); ok {
			return recv, f.obj, f.hint
		}
	case isIdent(sel.X):
		if name, ok := r.pkgVar(ast.Unparen(sel.X)); ok {
			return recv, "nil", name
		}
	}
	return recv, "nil", ""
}

func isSelector(e ast.Expr) bool { _, ok := ast.Unparen(e).(*ast.SelectorExpr); return ok }
func isIdent(e ast.Expr) bool    { _, ok := ast.Unparen(e).(*ast.Ident); return ok }
