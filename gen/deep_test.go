package gen

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// TestDeepNeedsDepth checks the deep family's claim: the violation needs d
// nested calls. The profile engine (Lemma 4) finds it at any depth; the
// global engine's stack-bounded search finds it with --max-stack d and not
// with d-1, with or without the lock.
func TestDeepNeedsDepth(t *testing.T) {
	for d := 1; d <= 7; d++ {
		for _, sync := range []bool{false, true} {
			t.Run(fmt.Sprintf("d=%d/sync=%v", d, sync), func(t *testing.T) {
				p := compile(t, Deep(d, sync))
				require.Equal(t, model.Recursive, p.Class())
				if !sync {
					res := decide(t, "profile", p, engines.Options{})
					require.Equal(t, engines.Violation, res.Verdict)
					require.GreaterOrEqual(t, maxStack(p, res.Witness), d)
				}
				require.Equal(t, engines.Violation, decide(t, "global", p, engines.Options{MaxStack: d}).Verdict)
				if d > 1 {
					res := decide(t, "global", p, engines.Options{MaxStack: d - 1})
					require.Equal(t, engines.Unknown, res.Verdict, res.Reason)
				}
			})
		}
	}
}

// maxStack is the deepest stack along the witness's paths.
func maxStack(p *model.Program, w *model.Witness) int {
	deepest := 0
	for t, path := range w.Paths {
		a, h := p.Threads[t].Auto, 0
		for _, m := range path {
			switch a.Out[m.From][m.Edge].Stack {
			case model.StackPush:
				h++
			case model.StackPop:
				h--
			}
			deepest = max(deepest, h)
		}
	}
	return deepest
}
