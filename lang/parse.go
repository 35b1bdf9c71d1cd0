package lang

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// parser is built once; participle parsers are safe for concurrent use.
var parser = sync.OnceValues(func() (*participle.Parser[File], error) {
	return participle.Build[File](parserOptions...)
})

var parserOptions = []participle.Option{
	participle.Lexer(lexDef{}),
	// The grammar is LL(1) on keywords: a branch that consumed a token and
	// failed is the error to report, not a reason to try the next branch.
	participle.UseLookahead(0),
	participle.Union[Decl](&NameList{}, &ProcDecl{}, &ThreadDecl{}),
	participle.Union[Stmt](&Access{}, &LockOp{}, &Sync{}, &Atomic{}, &Loop{},
		&Repeat{}, &Choose{}, &Call{}, &Skip{}),
}

// stmtParser parses one statement (see stmtList).
var stmtParser = sync.OnceValues(func() (*participle.Parser[oneStmt], error) {
	return participle.Build[oneStmt](parserOptions...)
})

// declKeywords start top-level declarations and appear nowhere else, so a
// parse that fails can resume at the next one (error recovery, as go/parser
// resumes at the next declaration).
var declKeywords = map[string]bool{"vars": true, "locks": true, "proc": true, "thread": true}

// parse parses src. Lexical errors (bad characters, unterminated comments)
// are all reported; so is the first syntax error of every declaration group
// the parser can resume at.
func parse(filename string, src []byte) (*File, ErrorList) {
	p, err := parser()
	if err != nil {
		panic("lang: bad grammar: " + err.Error()) // a programmer error
	}
	var errs ErrorList
	text := string(src)
	file := &File{}
	start := lexer.Position{Filename: filename, Line: 1, Column: 1}
	for {
		var lexErrs ErrorList
		sc := newScanner(text, lexer.Position{Filename: filename, Line: 1, Column: 1}, &lexErrs)
		sc.pos, sc.bodies = start, true
		peek, _ := lexer.Upgrade(sc) // our scanner never fails
		if len(lexErrs) > 0 {
			// Lexical errors only: syntax errors after a bad character are
			// mostly its echoes.
			return nil, append(errs, lexErrs...)
		}
		part, err := p.ParseFromLexer(peek)
		if err == nil {
			file.Decls = append(file.Decls, part.Decls...)
			break
		}
		perr, ok := err.(participle.Error)
		if !ok {
			errs.add(toPos(start), "%v", err)
			break
		}
		errs.add(toPos(perr.Position()), "%s", readable(perr.Message()))
		next, ok := resumeAt(text, start, perr.Position())
		if !ok {
			break
		}
		start = next
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return file, nil
}

// resumeAt finds the first declaration keyword at or after the error
// position and after the start of the failed parse.
func resumeAt(src string, start, errPos lexer.Position) (lexer.Position, bool) {
	var discard ErrorList
	from := errPos
	if from.Offset < start.Offset {
		from = start
	}
	sc := newScanner(src, lexer.Position{}, &discard)
	sc.pos = from
	for {
		t := sc.scan()
		if t.EOF() {
			return t.Pos, false
		}
		if t.Type == tokKeyword && declKeywords[t.Value] && t.Pos.Offset > start.Offset {
			return t.Pos, true
		}
	}
}

// readable rewrites participle's "unexpected token "x" (expected EBNF)" in
// the words of docs/spec.md §2: what was found, and the first thing that would fit.
func readable(msg string) string {
	m := unexpectedRE.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	found := strconv.Quote(m[1])
	if m[1] == "<EOF>" {
		found = "end of file"
	}
	want := "a declaration (vars, locks, proc or thread)"
	if m[2] != "" {
		want = expected(m[2])
	}
	return "unexpected " + found + ", expected " + want
}

var unexpectedRE = regexp.MustCompile(`^unexpected token "(.*)"(?: \(expected (.*)\))?$`)

// expectedNames translates grammar symbols into what a user would call them.
var expectedNames = map[string]string{
	"Ident":          "a name",
	"IntLit":         "a number",
	"Block":          `"{"`,
	"endOfBlock":     `a statement or "}"`,
	"endOfAutomaton": `an edge or "}"`,
	"Label":          "an event (read, write, acquire, release, begin, end or skip)",
	"Edge":           "an edge",
	"Automaton":      `"automaton"`,
}

// expected names the first symbol of each top-level alternative.
func expected(ebnf string) string {
	var alts []string
	for _, a := range splitAlternatives(ebnf) {
		alts = append(alts, firstExpected(a))
	}
	return strings.Join(alts, " or ")
}

// splitAlternatives splits an EBNF expression at its top-level '|'.
func splitAlternatives(ebnf string) []string {
	var alts []string
	from := 0
	scanEBNF(ebnf, func(i int, c rune, depth int) bool {
		if c == '|' && depth == 0 {
			alts = append(alts, strings.TrimSpace(ebnf[from:i]))
			from = i + 1
		}
		return true
	})
	return append(alts, strings.TrimSpace(ebnf[from:]))
}

// scanEBNF calls at with each character of ebnf outside quoted literals and
// the parenthesis depth before it, until at returns false.
func scanEBNF(ebnf string, at func(i int, c rune, depth int) bool) {
	depth, quoted := 0, false
	for i, c := range ebnf {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case !at(i, c, depth):
			return
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
	}
}

// firstExpected names the first symbol of an EBNF sequence.
func firstExpected(ebnf string) string {
	if strings.HasPrefix(ebnf, "(") {
		return expected(matchingGroup(ebnf))
	}
	sym := ebnf
	if i := strings.IndexAny(sym, " )|*+?"); i >= 0 {
		sym = sym[:i]
	}
	if name, ok := expectedNames[sym]; ok {
		return name
	}
	return sym
}

// matchingGroup returns the inside of the parenthesised group ebnf opens with.
func matchingGroup(ebnf string) string {
	inside := ebnf[1:]
	scanEBNF(ebnf, func(i int, c rune, depth int) bool {
		if c == ')' && depth == 1 {
			inside = ebnf[1:i]
			return false
		}
		return true
	})
	return inside
}
