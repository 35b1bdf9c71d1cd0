package lang

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/stretchr/testify/require"
)

func TestSyntaxMessages(t *testing.T) {
	for src, want := range map[string]string{
		"thread A { read }":               `t.conc:1:17: unexpected "}", expected a name`,
		"thread A { rea x }":              `t.conc:1:12: unexpected "rea", expected a statement or "}"`,
		"thread A {":                      `t.conc:1:11: unexpected end of file, expected a statement or "}"`,
		"thread A":                        `t.conc:1:9: unexpected end of file, expected "{" or "automaton"`,
		"thread A[2":                      `t.conc:1:11: unexpected end of file, expected "]"`,
		"thread A { choose { skip } }":    `t.conc:1:28: unexpected "}", expected "or"`,
		"thread A { read x } }":           `t.conc:1:21: unexpected "}", expected a declaration (vars, locks, proc or thread)`,
		"vars read":                       `t.conc:1:6: unexpected "read", expected a name`,
		"thread T automaton { a -> b }":   `t.conc:1:22: unexpected "a", expected "init"`,
		"thread T automaton { init a a }": `t.conc:1:31: unexpected "}", expected "->"`,
		"thread T { read x ¤ }":           `t.conc:1:19: unexpected character '¤'`,
	} {
		require.Equal(t, []string{want}, compileErrors(t, src), src)
	}
}

func TestSeparatorsAndComments(t *testing.T) {
	p := mustCompile(t, "// c\n;;vars x; ;locks l;\nthread T {;read x;;; /* a\ncomment */ sync l { ; } ; };")
	require.Equal(t, []string{"0 -begin-> 1", "1 -read x-> 2", "2 -end-> 3", "3 -acquire l-> 4", "4 -release l-> 5"},
		shape(p, p.Threads[0].Auto))
	a := p.Threads[0].Auto
	require.Equal(t, int64(4), a.Out[3][0].Ev.Pos.Line, "lines count across comments")
}

func TestColumnsCountCharacters(t *testing.T) {
	p := mustCompile(t, "/* é */ thread T { read x }")
	require.Equal(t, int32(25), p.Threads[0].Auto.Out[0][0].Ev.Pos.Col)
}

// TestByteOrderMark: a UTF-8 byte-order mark opening the file is skipped,
// and line 1 column 1 is the character after it; elsewhere it is a bad
// character.
func TestByteOrderMark(t *testing.T) {
	p := mustCompile(t, "\ufeffvars x\nthread T { read x }")
	require.Equal(t, []string{"x"}, p.Vars)
	require.Equal(t, []string{`t.conc:1:1: unexpected "}", expected a declaration (vars, locks, proc or thread)`},
		compileErrors(t, "\ufeff}"))
	require.Equal(t, []string{"t.conc:1:14: unexpected character '\\ufeff'"},
		compileErrors(t, "thread T { } \ufeff"))
}

func TestRecoveryReportsEveryDeclaration(t *testing.T) {
	errs := compileErrors(t, "thread A { read }\nthread B { write }\nproc p { call }\nthread C { read x }")
	require.Equal(t, []string{
		`t.conc:1:17: unexpected "}", expected a name`,
		`t.conc:2:18: unexpected "}", expected a name`,
		`t.conc:3:15: unexpected "}", expected a name`,
	}, errs)
}

// TestFastPathAgreesWithGrammar parses statements both by hand (stmtList)
// and with participle's Stmt grammar: same nodes, same errors.
func TestFastPathAgreesWithGrammar(t *testing.T) {
	p, err := stmtParser()
	require.NoError(t, err)
	for _, src := range []string{
		"read x", "write x, y, z", "acquire l", "release m", "call p", "skip",
		"read", "read x,", "write ,", "acquire", "call 3", "release {", "read x, }",
		"sync l { read x; ; write y }", "atomic { }", "atomic { atomic { skip } }",
		"loop { call p; skip }", "repeat 12 { read x }", "choose { read x } or { } or { skip }",
		"sync { }", "sync l read", "sync l { read }", "atomic", "atomic {", "atomic { x }",
		"loop read", "repeat x { }", "repeat 3", "repeat 3 { ", "choose { }", "choose { } or",
		"choose { } or { write }", "choose { } { }", "atomic { thread }",
	} {
		fast, fastErr := parseStmt(peekingLexer(t, src))
		slow, slowErr := p.ParseFromLexer(peekingLexer(t, src), participle.AllowTrailing(true))
		if slowErr != nil {
			require.Error(t, fastErr, src)
			require.Equal(t, slowErr.(participle.Error).Position(), fastErr.(participle.Error).Position(), src)
			require.Equal(t, readable(slowErr.(participle.Error).Message()), readable(fastErr.(participle.Error).Message()), src)
			continue
		}
		require.NoError(t, fastErr, src)
		require.Equal(t, slow.S, fast, src)
	}
}

func peekingLexer(t *testing.T, src string) *lexer.PeekingLexer {
	var errs ErrorList
	lex, err := lexer.Upgrade(newScanner(src, lexer.Position{Filename: "t", Line: 1, Column: 1}, &errs))
	require.NoError(t, err)
	require.Empty(t, errs)
	return lex
}

func TestErrorListFormat(t *testing.T) {
	var l ErrorList
	for i := 12; i >= 1; i-- {
		l.add(pos(int32(i), 1), "e%d", i)
	}
	l.add(pos(3, 1), "e3") // a duplicate
	l.RemoveMultiples()
	require.Len(t, l, 12)
	lines := strings.Split(l.Error(), "\n")
	require.Len(t, lines, 11)
	require.Equal(t, "t.conc:1:1: e1", lines[0])
	require.Equal(t, "t.conc:10:1: e10", lines[9])
	require.Equal(t, "and 2 more errors", lines[10])
	require.Equal(t, "t.conc:4:1: e4", l[3].Error())
	require.NoError(t, ErrorList(nil).Err())
	require.Equal(t, l[0].Error(), l[:1].Error())
}

func TestKeywordsAreReserved(t *testing.T) {
	errs := compileErrors(t, "thread loop { skip }")
	require.Equal(t, []string{`t.conc:1:8: unexpected "loop", expected a name`}, errs)
}

func TestDeepNestingIsAnError(t *testing.T) {
	src := "thread T { " + strings.Repeat("atomic { ", maxNesting+1) + strings.Repeat("} ", maxNesting+1) + "}"
	errs := compileErrors(t, src)
	require.Len(t, errs, 1)
	require.Contains(t, errs[0], "blocks nested more than 10000 deep")
	src = "thread T { " + strings.Repeat("loop { ", maxNesting-1) + "read x " + strings.Repeat("} ", maxNesting-1) + "}"
	mustCompile(t, src)
}
