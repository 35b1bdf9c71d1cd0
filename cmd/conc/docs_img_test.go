package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docsPicture is an image of README.md or docs/*.md whose alt text is the
// conc command that draws it: ![conc ARGS --html](…img/NAME.png).
var docsPicture = regexp.MustCompile(`!\[conc ([^]]*) --html\]\([^)]*img/([a-z0-9-]+)\.png\)`)

// elapsed is the summary's time, the one part of a page that varies
// between two runs of the same command.
var elapsed = regexp.MustCompile(`\b[0-9]+ ms</p>`)

// TestDocsImagesMatchBinary: each --html picture the documents show has
// its page kept beside it (docs/img/NAME.html, scripts/docs-img.sh), and
// that page is what today's code writes for the command of its alt text,
// byte for byte but the elapsed time: a change to the pages or to the
// answers shows as a stale picture until the script is run again.
func TestDocsImagesMatchBinary(t *testing.T) {
	t.Chdir("../..") // the commands name files from the module root
	docs, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	seen := 0
	for _, doc := range append([]string{"README.md"}, docs...) {
		src, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, m := range docsPicture.FindAllStringSubmatch(string(src), -1) {
			seen++
			args, name := strings.Fields(m[1]), m[2]
			kept, err := os.ReadFile(filepath.Join("docs/img", name+".html"))
			require.NoError(t, err, "%s: %s has no page beside it: run scripts/docs-img.sh", doc, name)
			_, err = os.Stat(filepath.Join("docs/img", name+".png"))
			require.NoError(t, err, "%s: run scripts/docs-img.sh", doc)
			page := filepath.Join(t.TempDir(), name+".html")
			o := conc(append(args, "--html", page)...)
			require.Contains(t, []int{exitSerializable, exitViolation, exitUnknown}, o.code, "conc %s: %s", m[1], o.stderr)
			now, err := os.ReadFile(page)
			require.NoError(t, err)
			require.Equal(t, elapsed.ReplaceAllString(string(now), "N ms</p>"), elapsed.ReplaceAllString(string(kept), "N ms</p>"),
				"docs/img/%s.html is not what conc %s --html writes today: run scripts/docs-img.sh", name, m[1])
		}
	}
	require.GreaterOrEqual(t, seen, 3, "the README's and docs/traces.md's --html pictures")
}
