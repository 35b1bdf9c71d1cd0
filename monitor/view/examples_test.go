package view

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// words is res's obstacles in words, one line each, facts indented.
func words(res Result) string {
	var b strings.Builder
	n := res.Names()
	for _, o := range res.Why {
		for i, l := range n.Words(o) {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func orderWords(res Result) string {
	var out []string
	for _, tx := range res.Order {
		out = append(out, res.Names().TxnWords(tx))
	}
	return strings.Join(out, ", ")
}

// TestExamples: the classic shapes, with their witnesses in words.
func TestExamples(t *testing.T) {
	for _, c := range []struct {
		name, text string
		verdict    Verdict
		stage      Stage
		want       string // the order, or the obstacles' words
	}{
		{"blind write (view- but not conflict-serializable)", "T1|begin\nT1|w(x)\nT2|w(x)\nT1|w(x)\nT1|end\n", Serializable, StageArcs,
			"T2 line 3, T1 lines 1-5"},
		{"lost update", "T1|begin\nT1|r(x)\nT2|w(x)\nT1|w(x)\nT1|end\n", Violation, StageArcs,
			"these precedences close a cycle (T1 lines 1-5 → T2 line 3 → T1 lines 1-5), so no serial order keeps them all:\n" +
				"  T1 lines 1-5 before T2 line 3: the read of x at line 2 sees its initial value, and the other writes x at line 3\n" +
				"  T2 line 3 before T1 lines 1-5: the write of x at line 4 is its final write, and the other writes x at line 3\n"},
		{"own write lost", "T1|begin\nT1|w(x)\nT2|w(x)\nT1|r(x)\nT1|end\n", Violation, StageLocal,
			"T1 lines 1-5 reads x at line 4 after writing it at line 2, but the read sees T2's write of x at line 3: in a serial order it would see its own write\n"},
		{"stale read", "T1|begin\nT1|w(x)\nT2|r(x)\nT1|w(x)\nT1|end\n", Violation, StageLocal,
			"T2's read of x at line 3 sees T1's write of x at line 2, which T1 lines 1-5 overwrites at line 4: in a serial order the read would see the later write\n"},
		{"split read", "T1|begin\nT1|r(x)\nT2|w(x)\nT1|r(x)\nT1|end\n", Violation, StageLocal,
			"T1's read of x at line 4 sees T2's write of x at line 3, but an earlier read of x in T1 lines 1-5, before any write of its own, saw the initial value of x: in a serial order both would see the same write\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := check(t, c.text, Options{})
			require.Equal(t, c.verdict, res.Verdict, "%s", words(res))
			require.Equal(t, c.stage, res.Decided)
			agree(t, c.text, parseRef(c.text, false), res)
			got := words(res)
			if res.Verdict == Serializable {
				got = orderWords(res)
			}
			t.Logf("\n%s", got)
			if c.want != "" {
				require.Equal(t, c.want, got)
			}
		})
	}
}
