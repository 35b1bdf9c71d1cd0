package lang

import (
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/conc-dev/conc/model"
)

// Token types of the .conc lexer. Whitespace and comments never become
// tokens, so the parser needs no elision.
const (
	tokEOF     = lexer.EOF
	tokKeyword = lexer.TokenType(-2 - iota)
	tokIdent
	tokInt
	tokPunct
)

var tokenSymbols = map[string]lexer.TokenType{
	"EOF": tokEOF, "Keyword": tokKeyword, "Ident": tokIdent, "Int": tokInt, "Punct": tokPunct,
}

// keywords are reserved: they never lex as identifiers (SPEC §2).
var keywords = map[string]bool{}

func init() {
	for _, k := range []string{"vars", "locks", "proc", "thread", "atomic", "read", "write",
		"acquire", "release", "sync", "loop", "repeat", "choose", "or", "call", "skip",
		"automaton", "init", "begin", "end", "push", "pop"} {
		keywords[k] = true
	}
}

// lexDef is the participle lexer definition. It is hand written rather than
// a regexp lexer so that 10^7-event straight-line programs lex in linear time
// with small constants, and so that bad characters and unterminated comments
// become our own errors (collected, not fatal) instead of participle's.
type lexDef struct{ errs *ErrorList }

func (d lexDef) Symbols() map[string]lexer.TokenType { return tokenSymbols }

func (d lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexBytes(filename, src)
}

func (d lexDef) LexBytes(filename string, src []byte) (lexer.Lexer, error) {
	return &scanner{src: src, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}, errs: d.errs}, nil
}

// scanner produces the tokens of one source. Columns count characters
// (runes) from 1, as editors show them.
type scanner struct {
	src  []byte
	pos  lexer.Position // of src[pos.Offset]
	errs *ErrorList
}

// advance moves past n bytes, tracking line and column.
func (s *scanner) advance(n int) {
	for end := s.pos.Offset + n; s.pos.Offset < end; {
		c := s.src[s.pos.Offset]
		switch {
		case c == '\n':
			s.pos.Line++
			s.pos.Column = 1
			s.pos.Offset++
		case c < utf8.RuneSelf:
			s.pos.Column++
			s.pos.Offset++
		default:
			_, size := utf8.DecodeRune(s.src[s.pos.Offset:])
			s.pos.Column++
			s.pos.Offset += size
		}
	}
}

// Next returns the next token. Lexical mistakes are recorded in s.errs and
// skipped, so the parser still sees the rest of the file.
func (s *scanner) Next() (lexer.Token, error) {
	for s.skipSpace() {
	}
	start := s.pos
	rest := s.src[s.pos.Offset:]
	if len(rest) == 0 {
		return lexer.Token{Type: tokEOF, Pos: start}, nil
	}
	n, typ := scanToken(rest)
	if n == 0 {
		r, size := utf8.DecodeRune(rest)
		s.errs.add(toPos(start), "unexpected character %q", r)
		s.advance(size)
		return s.Next()
	}
	val := string(rest[:n])
	if typ == tokIdent && keywords[val] {
		typ = tokKeyword
	}
	s.advance(n)
	return lexer.Token{Type: typ, Value: val, Pos: start}, nil
}

// scanToken measures the token at the start of b; n == 0 means none.
func scanToken(b []byte) (n int, typ lexer.TokenType) {
	c := b[0]
	switch {
	case isLetter(c):
		for n = 1; n < len(b) && (isLetter(b[n]) || isDigit(b[n])); n++ {
		}
		return n, tokIdent
	case isDigit(c):
		for n = 1; n < len(b) && isDigit(b[n]); n++ {
		}
		return n, tokInt
	case c == '-' && len(b) > 1 && b[1] == '>':
		return 2, tokPunct
	}
	switch c {
	case '{', '}', '[', ']', ',', ':', ';', '/':
		return 1, tokPunct
	}
	return 0, 0
}

// skipSpace skips white space and one comment; it reports whether it moved.
func (s *scanner) skipSpace() bool {
	rest := s.src[s.pos.Offset:]
	n := 0
	for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t' || rest[n] == '\n' || rest[n] == '\r') {
		n++
	}
	if n > 0 {
		s.advance(n)
		return true
	}
	if len(rest) < 2 || rest[0] != '/' || (rest[1] != '/' && rest[1] != '*') {
		return false
	}
	if rest[1] == '/' {
		for n < len(rest) && rest[n] != '\n' {
			n++
		}
		s.advance(n)
		return true
	}
	return s.skipBlockComment(rest)
}

func (s *scanner) skipBlockComment(rest []byte) bool {
	for n := 2; n+1 < len(rest); n++ {
		if rest[n] == '*' && rest[n+1] == '/' {
			s.advance(n + 2)
			return true
		}
	}
	s.errs.add(toPos(s.pos), "comment not terminated")
	s.advance(len(rest))
	return true
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// toPos converts a participle position to ours.
func toPos(p lexer.Position) model.Pos {
	return model.Pos{File: p.Filename, Line: int32(p.Line), Col: int32(p.Column)}
}
