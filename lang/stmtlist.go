package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// stmtList is a block's statements. It drives the loop over them itself,
// for speed: participle's repetition keeps every iteration's deferred field
// updates until the block ends, caps the count at 10^6, and costs some
// microseconds a statement, while straight-line threads have 10^7 statements
// (SPEC's engines are measured on them). So the leaf statements (read,
// write, acquire, release, call, skip), which are what long programs are made
// of, are parsed here by hand into the very nodes their grammar tags
// describe; compound statements go through participle with the Stmt grammar.
// TestFastPathAgreesWithGrammar checks the two agree.
type stmtList struct{ List []Stmt }

// oneStmt is the grammar of a single statement.
type oneStmt struct {
	S Stmt `parser:"@@"`
}

// stmtKeywords are the keywords that start a statement.
var stmtKeywords = map[string]bool{"read": true, "write": true, "acquire": true,
	"release": true, "sync": true, "atomic": true, "loop": true, "repeat": true,
	"choose": true, "call": true, "skip": true}

func (l *stmtList) Parse(lex *lexer.PeekingLexer) error {
	for {
		t := lex.Peek()
		switch {
		case t.Type == tokPunct && t.Value == ";":
			lex.Next()
			continue
		case t.Type != tokKeyword || !stmtKeywords[t.Value]:
			return nil // the end of the block, or an error the caller reports
		}
		s, err := parseLeaf(lex)
		if err == nil && s == nil {
			s, err = parseCompound(lex)
		}
		if err != nil {
			return err
		}
		l.List = append(l.List, s)
	}
}

// parseCompound parses one statement with participle.
func parseCompound(lex *lexer.PeekingLexer) (Stmt, error) {
	p, err := stmtParser()
	if err != nil {
		return nil, err
	}
	s, err := p.ParseFromLexer(lex, participle.AllowTrailing(true))
	if err != nil {
		return nil, err
	}
	return s.S, nil
}

// parseLeaf parses a leaf statement by hand, or returns nil, nil when the
// next statement is compound.
func parseLeaf(lex *lexer.PeekingLexer) (Stmt, error) {
	t := lex.Peek()
	pos, op := t.Pos, t.Value
	switch op {
	case "read", "write":
		lex.Next()
		a := &Access{Pos: pos, Op: op}
		for {
			id, err := parseIdent(lex)
			if err != nil {
				return nil, err
			}
			a.Names = append(a.Names, id)
			if t := lex.Peek(); t.Type != tokPunct || t.Value != "," {
				return a, nil
			}
			lex.Next()
		}
	case "acquire", "release", "call":
		lex.Next()
		id, err := parseIdent(lex)
		if err != nil {
			return nil, err
		}
		if op == "call" {
			return &Call{Pos: pos, Proc: id}, nil
		}
		return &LockOp{Pos: pos, Op: op, Lock: id}, nil
	case "skip":
		lex.Next()
		return &Skip{Pos: pos, Skip: true}, nil
	}
	return nil, nil
}

// parseIdent parses a name, failing as participle would.
func parseIdent(lex *lexer.PeekingLexer) (*Ident, error) {
	t := lex.Peek()
	if t.Type != tokIdent {
		return nil, &participle.UnexpectedTokenError{Unexpected: *t, Expect: "Ident"}
	}
	lex.Next()
	return &Ident{Pos: t.Pos, Name: t.Value}, nil
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
