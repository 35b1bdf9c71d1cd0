package lang

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/docblocks"
)

// languageDoc is the language's documentation, whose conc blocks the tests
// below hold to the compiler so that the page cannot drift from it.
const languageDoc = "../docs/language.md"

func concBlocks(t *testing.T) []docblocks.Block {
	t.Helper()
	md, err := os.ReadFile(languageDoc)
	require.NoError(t, err)
	blocks := docblocks.Of(docblocks.Extract(string(md)), "conc")
	require.NotEmpty(t, blocks)
	return blocks
}

// TestLanguageDoc: every conc block of docs/language.md compiles, or, when
// it has /* ERROR "…" */ comments, reports exactly those errors (the
// harness of testdata/*.conc; lines count from the block's first line).
func TestLanguageDoc(t *testing.T) {
	for _, b := range concBlocks(t) {
		t.Run(fmt.Sprintf("line%d", b.Line), func(t *testing.T) {
			src := []byte(b.Text)
			want := expectedErrors(t, src)
			prog, err := Compile("block.conc", src)
			if len(want) == 0 {
				require.NoError(t, err, "the block at %s:%d must compile", languageDoc, b.Line)
				require.NotNil(t, prog)
				return
			}
			require.Nil(t, prog, "the block at %s:%d must fail", languageDoc, b.Line)
			var list ErrorList
			require.True(t, errors.As(err, &list), "error %T is not an ErrorList", err)
			checkErrors(t, "block.conc", list, want)
		})
	}
}

// TestLanguageDocListsEveryError: every static error message that lang's
// sources can report appears in an error block of docs/language.md. The
// messages are found in the sources as the format strings of errs.add and
// errorf calls, each a pattern whose verbs match anything.
func TestLanguageDocListsEveryError(t *testing.T) {
	var reported []string
	for _, b := range concBlocks(t) {
		if _, err := Compile("block.conc", []byte(b.Text)); err != nil {
			for _, e := range err.(ErrorList) {
				reported = append(reported, e.Msg)
			}
		}
	}
	formats := errorFormats(t)
	require.NotEmpty(t, formats)
	for _, f := range formats {
		re := formatPattern(f)
		found := false
		for _, m := range reported {
			if re.MatchString(m) {
				found = true
				break
			}
		}
		require.True(t, found, "no conc block of %s reports the error %q", languageDoc, f)
	}
}

// errorCallRE matches the format string of an errs.add or errorf call.
var errorCallRE = regexp.MustCompile(`(?:errs\.add|errorf)\([^"\n]*"((?:[^"\\\n]|\\.)*)"`)

// errorFormats are the format strings of lang's error calls, but for the
// bare "%s" and "%v" that pass the parser's messages on (its syntax errors
// are shown in the doc by example, not by pattern).
func errorFormats(t *testing.T) []string {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	seen := map[string]bool{}
	var formats []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range errorCallRE.FindAllStringSubmatch(string(src), -1) {
			if m[1] == "%s" || m[1] == "%v" || seen[m[1]] {
				continue
			}
			seen[m[1]] = true
			formats = append(formats, m[1])
		}
	}
	return formats
}

// formatPattern matches the messages a format can produce.
func formatPattern(format string) *regexp.Regexp {
	verb := regexp.MustCompile(`%[sdqv]`)
	parts := verb.Split(format, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(strings.ReplaceAll(p, `\"`, `"`))
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}
