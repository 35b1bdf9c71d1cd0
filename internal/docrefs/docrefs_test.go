package docrefs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// root is the module root, seen from this package's directory.
const root = "../.."

// textFile reports whether path is a file whose comments or text a reader
// follows: source, scripts, docs and example programs.
func textFile(path string) bool {
	switch filepath.Ext(path) {
	case ".go", ".s", ".sh", ".md", ".conc", ".txt":
		return true
	}
	return filepath.Base(path) == "run" // .ci/run
}

// repoFiles lists the repository's text files, relative to root.
func repoFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root && d.Name() != ".ci" {
			return filepath.SkipDir // .git and the like
		}
		if !d.IsDir() && textFile(path) {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// specSections are the numbers of docs/spec.md's "## N. Title" sections.
func specSections(t *testing.T) map[string]bool {
	b, err := os.ReadFile(filepath.Join(root, "docs", "spec.md"))
	require.NoError(t, err, "docs/spec.md is the contract the code cites")
	secs := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## (\d+)\. `).FindAllStringSubmatch(string(b), -1) {
		secs[m[1]] = true
	}
	return secs
}

// citation is "docs/spec.md" and the section after it, which a comment may
// carry to its next line ("docs/spec.md\n// §3").
var citation = regexp.MustCompile(`docs/spec\.md(?:\s*(?://|#)?\s*)§(\d+)`)

// TestSpecCitations: every "docs/spec.md §N" in the repository names a
// section of docs/spec.md.
func TestSpecCitations(t *testing.T) {
	secs := specSections(t)
	cited := 0
	for _, f := range repoFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, f))
		require.NoError(t, err)
		for _, m := range citation.FindAllStringSubmatch(string(b), -1) {
			cited++
			require.True(t, secs[m[1]], "%s cites docs/spec.md §%s, which docs/spec.md does not have", f, m[1])
		}
	}
	require.Greater(t, cited, 50, "the code cites the spec throughout; did the pattern stop matching?")
}

// outside are the beginnings of paths on the machine the project was
// written on that a clone does not have (spelled in pieces so that this
// file does not name them).
var outside = []string{"/" + "work/", "../" + "shared", "shared" + "/SPEC", "shared" + "/traces", "shared" + "/papers"}

// TestNoOutsidePaths: no comment or doc refers to a path outside the
// repository.
func TestNoOutsidePaths(t *testing.T) {
	for _, f := range repoFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, f))
		require.NoError(t, err)
		text := string(b)
		for _, o := range outside {
			if i := strings.Index(text, o); i >= 0 {
				line := strings.Count(text[:i], "\n") + 1
				t.Errorf("%s:%d refers to %q, a path outside the repository", f, line, o)
			}
		}
	}
}
