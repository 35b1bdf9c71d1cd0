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
	tokBody // a statement block's text (see scanner)
)

var tokenSymbols = map[string]lexer.TokenType{
	"EOF": tokEOF, "Keyword": tokKeyword, "Ident": tokIdent, "Int": tokInt, "Punct": tokPunct, "Body": tokBody,
}

// keywords are reserved: they never lex as identifiers (docs/spec.md §2).
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
	return newScanner(string(src), lexer.Position{Filename: filename, Line: 1, Column: 1}, d.errs), nil
}

// scanner produces the tokens of one source. Columns count characters
// (runes) from 1, as editors show them. Token values are substrings of the
// source, so scanning allocates nothing per token.
//
// With bodies set, the scanner hands each statement block to the parser as
// one token: after a "{" that opens a block (any "{" not right after
// "automaton"), it emits a tokBody token whose value is the text up to the
// matching "}", then that "}". The statements inside are scanned again,
// lazily, by the hand parser (stmtlist.go), so a 10^7-statement thread
// never becomes a 10^7-token array. Lexical errors inside bodies are still
// reported by this scan.
type scanner struct {
	src     string         // the text from base on
	base    int            // offset of src[0] in the file
	pos     lexer.Position // of the next character
	errs    *ErrorList
	bodies  bool
	last    string        // the previous token's value
	pending []lexer.Token // tokens to emit before scanning on
}

func newScanner(src string, pos lexer.Position, errs *ErrorList) *scanner {
	return &scanner{src: src, base: pos.Offset, pos: pos, errs: errs}
}

// rest is the text not yet scanned.
func (s *scanner) rest() string { return s.src[s.pos.Offset-s.base:] }

// advance moves past n bytes, tracking line and column.
func (s *scanner) advance(n int) {
	rest := s.rest()[:n]
	for i := 0; i < len(rest); {
		c := rest[i]
		switch {
		case c == '\n':
			s.pos.Line++
			s.pos.Column = 1
			i++
		case c < utf8.RuneSelf:
			s.pos.Column++
			i++
		default:
			_, size := utf8.DecodeRuneInString(rest[i:])
			s.pos.Column++
			i += size
		}
	}
	s.pos.Offset += n
}

// Next returns the next token (the lexer.Lexer interface).
func (s *scanner) Next() (lexer.Token, error) {
	if len(s.pending) > 0 {
		t := s.pending[0]
		s.pending = s.pending[1:]
		return t, nil
	}
	t := s.scan()
	if s.bodies && t.Type == tokPunct && t.Value == "{" && s.last != "automaton" {
		s.pending = s.body()
	}
	s.last = t.Value
	return t, nil
}

// body scans a block's text up to its matching "}" and returns the body
// token and that brace (or EOF, when the block is not closed).
func (s *scanner) body() []lexer.Token {
	start := s.pos
	for depth := 0; ; {
		t := s.scan()
		switch {
		case t.Type == tokEOF:
			return []lexer.Token{s.bodyToken(start, t.Pos), t}
		case t.Type != tokPunct:
		case t.Value == "{":
			depth++
		case t.Value == "}" && depth == 0:
			return []lexer.Token{s.bodyToken(start, t.Pos), t}
		case t.Value == "}":
			depth--
		}
	}
}

func (s *scanner) bodyToken(start, end lexer.Position) lexer.Token {
	return lexer.Token{Type: tokBody, Value: s.src[start.Offset-s.base : end.Offset-s.base], Pos: start}
}

// scan returns the next token. Lexical mistakes are recorded in s.errs and
// skipped, so the parser still sees the rest of the file.
func (s *scanner) scan() lexer.Token {
	for {
		for s.skipSpace() {
		}
		start := s.pos
		rest := s.rest()
		if len(rest) == 0 {
			return lexer.Token{Type: tokEOF, Pos: start}
		}
		n, typ := scanToken(rest)
		if n == 0 {
			r, size := utf8.DecodeRuneInString(rest)
			s.errs.add(toPos(start), "unexpected character %q", r)
			s.advance(size)
			continue
		}
		val := rest[:n]
		if typ == tokIdent && keywords[val] {
			typ = tokKeyword
		}
		s.advance(n)
		return lexer.Token{Type: typ, Value: val, Pos: start}
	}
}

// scanToken measures the token at the start of b; n == 0 means none.
func scanToken(b string) (n int, typ lexer.TokenType) {
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
	rest := s.rest()
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

func (s *scanner) skipBlockComment(rest string) bool {
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
	return model.Pos{File: p.Filename, Line: int64(p.Line), Col: int32(p.Column)}
}
