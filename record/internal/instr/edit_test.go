package instr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"
)

// Wrappers that meet at one offset nest: the outer opens first and
// closes last; a replaced range drops the edits inside it.
func TestEditorNesting(t *testing.T) {
	e := editor{src: []byte("a.b.c = x")}
	e.wrap(0, 3, "(*R(&", "))")  // a.b, the inner read
	e.wrap(0, 5, "(*R(&", ")))") // a.b.c, made first would be outer; span decides
	e.replace(8, 9, "y")
	e.wrap(8, 9, "<", ">") // edits of the replaced text are dropped
	e.insert(9, ";")       // after it, kept
	got := string(e.apply())
	want := "(*R(&(*R(&a.b)).c))) = y;"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestEditorSameSpan(t *testing.T) {
	e := editor{src: []byte("m[k]")}
	e.wrap(0, 1, "MR(", ")")    // made first: outer
	e.wrap(0, 1, "(*R(&", "))") // made second: inner
	if got, want := string(e.apply()), "MR((*R(&m)))[k]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFuncNames(t *testing.T) {
	src := "package bank\nfunc (a *Account) Transfer() {}\nfunc (c Cache) Get() {}\nfunc F() {}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Account.Transfer", "(*Account).Transfer", "bank.Account.Transfer", "ex.com/bank.Account.Transfer", "bank.(*Account).Transfer", "ex.com/bank.(*Account).Transfer"},
		{"Cache.Get", "bank.Cache.Get", "ex.com/bank.Cache.Get"},
		{"F", "bank.F", "ex.com/bank.F"},
	}
	for i, d := range f.Decls {
		if got := funcNames(d.(*ast.FuncDecl), "bank", "ex.com/bank"); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("decl %d: got %q, want %q", i, got, want[i])
		}
	}
}
