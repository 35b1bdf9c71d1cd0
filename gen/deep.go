package gen

import (
	"fmt"
	"math/rand/v2"
)

func init() {
	register(Family{
		Name: "deep",
		Doc: "a recursive thread whose violation needs --depth nested calls (default 1); --sync " +
			"puts the other thread's transaction under a lock, so that only a search with a bounded stack decides it",
		Reads: Reads{Knobs: []Knob{at("depth", 1)}, Switches: []string{"sync"}},
		Gen: func(_ *rand.Rand, p Params) string {
			return Deep(max(p.Depth, 1), p.Sync)
		},
		Bytes: func(p Params) float64 {
			d := max(p.Depth, 1)
			return 300 + float64(d)*(70+2*digits(d))
		},
	})
}

// Deep writes a recursive program (a pushdown system, Section 3.2) whose
// only violation needs d nested calls. Procedures L1 ... Ld form a ladder:
// L_i either climbs to L_{i+1} (Ld: writes y instead) or falls back to L1
// (a call, so the stack keeps growing: the call graph has cycles and the
// thread is recursive). Only the top rung writes y, so A's transaction
//
//	atomic { read x; call L1 }
//
// writes y only with at least d frames on the stack. B's transaction reads
// y and writes x; the run A:read x, B:read y, B:write x, A:write y is a
// violation (A -> B on x, B -> A on y), and without A's write of y no cycle
// exists: A's transaction would only read x.
//
// Profiles (Lemma 4's saturation) see the write however deep it is; a
// search that bounds the stack below d finds nothing. Under sync, B's
// transaction runs inside sync m, which changes no answer but takes the
// program out of the profile engine's reach (locks), leaving the bounded
// product search (Theorem 5: with locks the question is undecidable).
func Deep(d int, sync bool) string {
	top := []*node{leaf("vars x, y")}
	if sync {
		top = append(top, leaf("locks m"))
	}
	for i := 1; i <= d; i++ {
		up := leaf(fmt.Sprintf("call L%d", i+1))
		if i == d {
			up = leaf("write y")
		}
		// The fall back to L1 keeps every rung on a call cycle, so that no
		// rung is inlined and each climb pushes a frame.
		top = append(top, block(fmt.Sprintf("proc L%d", i), []*node{block("choose", []*node{up}, []*node{leaf("call L1")})}))
	}
	top = append(top, block("thread A", []*node{block("atomic", []*node{leaf("read x"), leaf("call L1")})}))
	b := []*node{block("atomic", []*node{leaf("read y"), leaf("write x")})}
	if sync {
		b = []*node{block("sync m", b)}
	}
	top = append(top, block("thread B", b))
	return render(fmt.Sprintf("gen deep: d=%d: a violation that needs %d nested calls", d, d), top)
}
