package trace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A line has three fields, THREAD|OP|LOC: a LOC with a '|' or a control
// character (other than a tab) is a malformed line with its line number,
// in every tier, and --lenient skips and counts it. Before, "T|r(x)|||"
// was a read of x at location "||".
func TestLocationRule(t *testing.T) {
	lead := strings.Repeat("T|w(x)|1\n", 30) // long enough for the fast tiers
	for _, c := range []struct{ loc, msg string }{
		{"||", `"|"`},
		{"|a|b", `"a|b"`},
		{"|12|34", `"12|34"`},
		{"|a\x00b", `"a\x00b"`},
		{"|\x1b[0m", `"\x1b[0m"`},
		{"|x\x7f", `"x\x7f"`},
	} {
		for _, m := range allTiers {
			src := lead + "T|r(x)" + c.loc + "\nT|w(x)|2\n"
			o := readOutcome(t, src, Options{}, m)
			require.Equal(t, "t.std:31: malformed location "+c.msg+": want THREAD|OP|LOC, LOC without '|' or control characters", o.Err, "%q tiers %d", c.loc, m)
			o = readOutcome(t, src, Options{Lenient: true}, m)
			require.Empty(t, o.Err)
			require.Len(t, o.Events, 31)
			require.Equal(t, int64(1), o.Stats.SkippedLines())
		}
	}
	// What real traces hold stays: no LOC, an empty one, RAPID's numbers,
	// source positions with spaces, tabs and non-ASCII letters.
	for _, loc := range []string{"", "|", "|0", "|12", "|Foo.java:12:5", "|a b\tc", "|Größe.java:3"} {
		for _, m := range allTiers {
			o := readOutcome(t, lead+"T|r(x)"+loc+"\r\n", Options{}, m)
			require.Empty(t, o.Err, "%q", loc)
			require.Len(t, o.Events, 31)
		}
	}
}
