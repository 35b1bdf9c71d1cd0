package lang

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// The syntax tree of docs/spec.md §2, as participle grammar. Every node records the
// position of its first token; blocks also record their closing brace, where
// an atomic block's end event and a sync block's release are placed.

// File is a whole .conc source: declarations, optionally separated by ';'.
type File struct {
	Decls []Decl `parser:"( ';' | @@ )*"`
}

// Decl is one top-level declaration.
type Decl interface{ decl() }

// NameList is "vars a, b" or "locks l, m".
type NameList struct {
	Pos   lexer.Position
	Kind  string   `parser:"@('vars' | 'locks')"`
	Names []*Ident `parser:"@@ ( ',' @@ )*"`
}

// ProcDecl is "proc p { … }".
type ProcDecl struct {
	Pos  lexer.Position
	Name *Ident `parser:"'proc' @@"`
	Body *Block `parser:"@@"`
}

// ThreadDecl is "thread T { … }", "thread W[3] { … }" or an automaton thread.
type ThreadDecl struct {
	Pos   lexer.Position
	Name  *Ident     `parser:"'thread' @@"`
	Count *IntLit    `parser:"( '[' @@ ']' )?"`
	Body  *Block     `parser:"( @@"`
	Auto  *Automaton `parser:"| @@ )"`
}

func (*NameList) decl()   {}
func (*ProcDecl) decl()   {}
func (*ThreadDecl) decl() {}

// Ident is a name with its position.
type Ident struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// IntLit is a decimal literal, kept as text so that overflow is our error.
type IntLit struct {
	Pos  lexer.Position
	Text string `parser:"@Int"`
}

// Block is "{ stmt* }".
type Block struct {
	Pos   lexer.Position
	Stmts stmtList   `parser:"'{' @@"`
	Close endOfBlock `parser:"@@"`
}

// Stmt is one statement of a block.
type Stmt interface{ stmt() }

// Access is "read x, y" or "write x".
type Access struct {
	Pos   lexer.Position
	Op    string   `parser:"@('read' | 'write')"`
	Names []*Ident `parser:"@@ ( ',' @@ )*"`
}

// LockOp is "acquire l" or "release l".
type LockOp struct {
	Pos  lexer.Position
	Op   string `parser:"@('acquire' | 'release')"`
	Lock *Ident `parser:"@@"`
}

// Sync is "sync l { … }".
type Sync struct {
	Pos  lexer.Position
	Lock *Ident `parser:"'sync' @@"`
	Body *Block `parser:"@@"`
}

// Atomic is "atomic { … }".
type Atomic struct {
	Pos  lexer.Position
	Body *Block `parser:"'atomic' @@"`
}

// Loop is "loop { … }".
type Loop struct {
	Pos  lexer.Position
	Body *Block `parser:"'loop' @@"`
}

// Repeat is "repeat n { … }".
type Repeat struct {
	Pos   lexer.Position
	Count *IntLit `parser:"'repeat' @@"`
	Body  *Block  `parser:"@@"`
}

// Choose is "choose { … } or { … } …".
type Choose struct {
	Pos      lexer.Position
	Branches []*Block `parser:"'choose' @@ ( 'or' @@ )+"`
}

// Call is "call p".
type Call struct {
	Pos  lexer.Position
	Proc *Ident `parser:"'call' @@"`
}

// Skip is "skip".
type Skip struct {
	Pos  lexer.Position
	Skip bool `parser:"@'skip'"`
}

func (*Access) stmt() {}
func (*LockOp) stmt() {}
func (*Sync) stmt()   {}
func (*Atomic) stmt() {}
func (*Loop) stmt()   {}
func (*Repeat) stmt() {}
func (*Choose) stmt() {}
func (*Call) stmt()   {}
func (*Skip) stmt()   {}

// Automaton is "automaton { init q  edge* }".
type Automaton struct {
	Pos   lexer.Position
	Init  *Ident         `parser:"'automaton' '{' 'init' @@"`
	Edges []*Edge        `parser:"( ';' | @@ )*"`
	Close endOfAutomaton `parser:"@@"`
}

// Edge is "p -> q : label" with an optional "/ push d" or "/ pop d".
type Edge struct {
	Pos   lexer.Position
	From  *Ident `parser:"@@ '->'"`
	To    *Ident `parser:"@@ ':'"`
	Label *Label `parser:"@@"`
	Stack string `parser:"( '/' @('push' | 'pop')"`
	Sym   *Ident `parser:"@@ )?"`
}

// Label is an automaton edge's event: an op with a target, or a bare one.
// The two shapes are separate alternatives so that "begin" never swallows
// the next edge's source state as a target.
type Label struct {
	Pos    lexer.Position
	Op     string `parser:"( @('read' | 'write' | 'acquire' | 'release')"`
	Target *Ident `parser:"  @@"`
	Bare   string `parser:"| @('begin' | 'end' | 'skip') )"`
}
