package lang

import (
	"fmt"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// stmtList is a block's statements, parsed by hand. Participle's grammar
// (the struct tags of ast.go, and oneStmt for one statement) is the
// reference; the hand parser builds the very nodes those tags describe and
// fails with the same errors, which TestFastPathAgreesWithGrammar checks
// statement by statement. The reason is speed: participle's repetition keeps
// every iteration's deferred field updates until the block ends, caps a
// block at 10^6 statements, and spends microseconds on each, while the
// engines are measured on straight-line threads of 10^7 events.
type stmtList struct{ List []Stmt }

// oneStmt is the grammar of a single statement.
type oneStmt struct {
	S Stmt `parser:"@@"`
}

// stmtKeywords are the keywords that start a statement.
var stmtKeywords = map[string]bool{"read": true, "write": true, "acquire": true,
	"release": true, "sync": true, "atomic": true, "loop": true, "repeat": true,
	"choose": true, "call": true, "skip": true}

// tokens is what the hand parser reads: participle's PeekingLexer, or a
// bodyReader over a block's text.
type tokens interface {
	Peek() *lexer.Token
	Next() *lexer.Token
}

// Parse parses the statements of a block: from the body token the scanner
// made of its text, or else straight from participle's tokens.
func (l *stmtList) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokBody {
		return l.parse(lex)
	}
	lex.Next()
	var discard ErrorList // the scanner that made the body reported them
	r := &bodyReader{sc: newScanner(t.Value, t.Pos, &discard), end: *lex.Peek()}
	r.next = r.scan()
	if err := l.parse(r); err != nil {
		return err
	}
	if !r.done {
		return unexpected(r.Peek(), "endOfBlock")
	}
	return nil
}

// bodyReader reads a body's tokens with one token of lookahead. Past the
// body's text it shows the token that follows the body (its "}", or EOF),
// so that errors name what the file really has there.
type bodyReader struct {
	sc         *scanner
	end        lexer.Token
	next, last lexer.Token
	done       bool // next is end
	depth      int  // of nested blocks
}

func (r *bodyReader) scan() lexer.Token {
	t := r.sc.scan()
	if t.Type == tokEOF {
		r.done = true
		return r.end
	}
	return t
}

func (r *bodyReader) Peek() *lexer.Token { return &r.next }

// Next returns the next token; the pointer is valid until the next call.
func (r *bodyReader) Next() *lexer.Token {
	r.last = r.next
	if !r.done {
		r.next = r.scan()
	}
	return &r.last
}

func (l *stmtList) parse(lex tokens) error {
	for {
		t := lex.Peek()
		switch {
		case isPunct(t, ";"):
			lex.Next()
			continue
		case t.Type != tokKeyword || !stmtKeywords[t.Value]:
			return nil // the end of the block, or an error the caller reports
		}
		s, err := parseStmt(lex)
		if err != nil {
			return err
		}
		l.List = append(l.List, s)
	}
}

func isPunct(t *lexer.Token, p string) bool { return t.Type == tokPunct && t.Value == p }

// parseStmt parses the statement starting at the keyword lex is at.
func parseStmt(lex tokens) (Stmt, error) {
	t := lex.Next()
	pos, op := t.Pos, t.Value
	switch op {
	case "read", "write":
		return parseAccess(lex, pos, op)
	case "acquire", "release":
		id, err := parseIdent(lex)
		return &LockOp{Pos: pos, Op: op, Lock: id}, err
	case "call":
		id, err := parseIdent(lex)
		return &Call{Pos: pos, Proc: id}, err
	case "skip":
		return &Skip{Pos: pos, Skip: true}, nil
	case "sync":
		id, err := parseIdent(lex)
		if err != nil {
			return nil, err
		}
		body, err := parseBlock(lex)
		return &Sync{Pos: pos, Lock: id, Body: body}, err
	case "atomic":
		body, err := parseBlock(lex)
		return &Atomic{Pos: pos, Body: body}, err
	case "loop":
		body, err := parseBlock(lex)
		return &Loop{Pos: pos, Body: body}, err
	case "repeat":
		return parseRepeat(lex, pos)
	}
	return parseChoose(lex, pos)
}

func parseAccess(lex tokens, pos lexer.Position, op string) (Stmt, error) {
	a := &Access{Pos: pos, Op: op}
	for {
		id, err := parseIdent(lex)
		if err != nil {
			return nil, err
		}
		a.Names = append(a.Names, id)
		if !isPunct(lex.Peek(), ",") {
			return a, nil
		}
		lex.Next()
	}
}

func parseRepeat(lex tokens, pos lexer.Position) (Stmt, error) {
	t := *lex.Peek()
	if t.Type != tokInt {
		return nil, unexpected(&t, "IntLit")
	}
	lex.Next()
	body, err := parseBlock(lex)
	return &Repeat{Pos: pos, Count: &IntLit{Pos: t.Pos, Text: t.Value}, Body: body}, err
}

func parseChoose(lex tokens, pos lexer.Position) (Stmt, error) {
	c := &Choose{Pos: pos}
	for {
		b, err := parseBlock(lex)
		if err != nil {
			return nil, err
		}
		c.Branches = append(c.Branches, b)
		t := lex.Peek()
		if t.Type != tokKeyword || t.Value != "or" {
			if len(c.Branches) == 1 {
				return nil, unexpected(t, `"or"`)
			}
			return c, nil
		}
		lex.Next()
	}
}

// maxNesting bounds how deeply blocks nest, so that recursion over the
// syntax tree stays far from Go's stack limit whatever the input.
const maxNesting = 10_000

// parseBlock parses "{" stmt* "}".
func parseBlock(lex tokens) (*Block, error) {
	t := *lex.Peek()
	if !isPunct(&t, "{") {
		return nil, unexpected(&t, "Block")
	}
	if r, ok := lex.(*bodyReader); ok {
		if r.depth++; r.depth > maxNesting {
			return nil, &participle.ParseError{Msg: fmt.Sprintf("blocks nested more than %d deep", maxNesting), Pos: t.Pos}
		}
		defer func() { r.depth-- }()
	}
	lex.Next()
	b := &Block{Pos: t.Pos}
	if err := b.Stmts.parse(lex); err != nil {
		return nil, err
	}
	if t := lex.Peek(); !isPunct(t, "}") {
		return nil, unexpected(t, "endOfBlock")
	}
	b.Close.Pos = lex.Next().Pos
	return b, nil
}

// parseIdent parses a name.
func parseIdent(lex tokens) (*Ident, error) {
	t := *lex.Peek()
	if t.Type != tokIdent {
		return nil, unexpected(&t, "Ident")
	}
	lex.Next()
	return &Ident{Pos: t.Pos, Name: t.Value}, nil
}

// unexpected is the error participle reports, expecting a grammar symbol.
func unexpected(t *lexer.Token, expect string) error {
	return &participle.UnexpectedTokenError{Unexpected: *t, Expect: expect}
}

// rbrace parses a closing brace and keeps its position. Its two named
// variants only make syntax errors say what else could have come.
type rbrace struct{ Pos lexer.Position }

func (r *rbrace) parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != tokPunct || t.Value != "}" {
		return participle.NextMatch
	}
	r.Pos = lex.Next().Pos
	return nil
}

type (
	endOfBlock     struct{ rbrace }
	endOfAutomaton struct{ rbrace }
)

func (r *endOfBlock) Parse(lex *lexer.PeekingLexer) error     { return r.parse(lex) }
func (r *endOfAutomaton) Parse(lex *lexer.PeekingLexer) error { return r.parse(lex) }
