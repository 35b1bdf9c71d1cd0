package examples_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/docblocks"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/testkit/expect"
)

// TestLanguageDocVerdicts holds the verdicts that docs/language.md states
// to the engines: every conc block with want lines is checked like an
// example, against every registered engine that supports it. (lang's
// TestLanguageDoc checks that the blocks compile.)
func TestLanguageDocVerdicts(t *testing.T) {
	md, err := os.ReadFile("../docs/language.md")
	require.NoError(t, err)
	checked := 0
	for _, b := range docblocks.Of(docblocks.Extract(string(md)), "conc") {
		wants, err := expect.Parse(b.Text)
		require.NoError(t, err, "block at line %d", b.Line)
		if len(wants) == 0 || strings.Contains(b.Text, "/* ERROR") {
			continue
		}
		name := fmt.Sprintf("language.md:%d", b.Line)
		prog, err := lang.Compile(name, []byte(b.Text))
		require.NoError(t, err)
		ex := example{name, b.Text, prog, wants}
		t.Run(fmt.Sprintf("line%d", b.Line), func(t *testing.T) {
			for _, en := range engines.Names() {
				e, err := engines.Lookup(en)
				require.NoError(t, err)
				for _, w := range ex.wants {
					checkWant(t, ex, e, w)
				}
			}
		})
		checked++
	}
	require.Greater(t, checked, 10, "the page states verdicts")
}
