package lang

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// errorRE matches the expectations written into testdata: a comment
// /* ERROR "substring" */ on the line where an error must be reported.
var errorRE = regexp.MustCompile(`/\* ERROR ("(?:[^"\\]|\\.)*") \*/`)

// expectedErrors maps line numbers to the substrings expected there.
func expectedErrors(t *testing.T, src []byte) map[int][]string {
	want := map[int][]string{}
	for i, line := range strings.Split(string(src), "\n") {
		for _, m := range errorRE.FindAllStringSubmatch(line, -1) {
			s, err := strconv.Unquote(m[1])
			require.NoError(t, err, "line %d: bad ERROR comment", i+1)
			want[i+1] = append(want[i+1], s)
		}
	}
	return want
}

// TestErrors is the harness over testdata/*.conc, in the style of
// go/parser's tests: every expected error is reported on its line, and no
// other error is reported. A file without ERROR comments must compile.
func TestErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/*.conc")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			want := expectedErrors(t, src)
			prog, err := Compile(file, src)
			if len(want) == 0 {
				require.NoError(t, err)
				require.NotNil(t, prog)
				return
			}
			require.Nil(t, prog)
			var list ErrorList
			require.True(t, errors.As(err, &list), "error %T is not an ErrorList", err)
			checkErrors(t, file, list, want)
		})
	}
}

func checkErrors(t *testing.T, file string, list ErrorList, want map[int][]string) {
	t.Helper()
	for _, e := range list {
		require.Equal(t, file, e.Pos.File)
		line := int(e.Pos.Line)
		i := indexContaining(want[line], e.Msg)
		if i < 0 {
			t.Errorf("unexpected error %v", e)
			continue
		}
		want[line] = append(want[line][:i], want[line][i+1:]...)
	}
	for line, subs := range want {
		for _, s := range subs {
			t.Errorf("%s:%d: missing error containing %q", file, line, s)
		}
	}
}

func indexContaining(subs []string, msg string) int {
	for i, s := range subs {
		if strings.Contains(msg, s) {
			return i
		}
	}
	return -1
}
