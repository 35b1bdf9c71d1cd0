package lang

import (
	"bytes"
	"fmt"

	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/model"
)

// bytesPerState is what one automaton state costs while a thread is
// compiled: its out-edge (an Edge with its Event and Pos, about 48 bytes,
// carved from a slab), the out slice's header (24), its context, InTxn and
// Held entries, and the renumbered copy when states were merged. Measured:
// `repeat 1000000 { repeat 29 { read x } }` in a transaction (29 M states)
// peaks at 2.9 GB.
const bytesPerState = 100

// TooLarge is Compile's answer for a program whose automata would not fit
// the memory budget, or have more states than Limits.MaxStates: the program is well formed, so this is a limit of the
// run (unknown, exit 3), not an error in the source.
type TooLarge struct {
	States int64 // the automata's states, as bounded before building
	Need   int64 // the bytes they would take, about
	Reason string
	// OverStates: the states went over Limits.MaxStates (--max-states);
	// otherwise the automata would not fit the memory budget.
	OverStates bool
}

func (e *TooLarge) Error() string { return e.Reason }

// CompileWithin is Compile under a memory budget of maxBytes (0: the
// default, budget.Default()). The states of every thread's automaton are
// bounded before anything is built (as for maxStates); a program whose
// automata would need more than the budget leaves is refused with a
// *TooLarge, before it is allocated, instead of crashing the process.
func CompileWithin(filename string, src []byte, maxBytes int64) (*model.Program, error) {
	return CompileLimited(filename, src, Limits{MaxBytes: maxBytes})
}

// compileLimited parses, resolves and builds under l.
func compileLimited(filename string, src []byte, l *limiter) (*model.Program, error) {
	src = bytes.TrimPrefix(src, byteOrderMark)
	f, errs := parse(filename, src)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	n := resolve(f, &errs)
	if len(errs) == 0 {
		if err := fits(n, l.meter); err != nil {
			return nil, err
		}
	}
	return compileResolved(filename, n, errs, l)
}

// fits checks the bound on the automata's states against the budget.
// Threads of one declaration share an automaton; a thread beyond maxStates
// is left to compileThread's static error (exit 2), whatever the budget.
func fits(n *names, m *budget.Meter) *TooLarge {
	z := newSizes(n)
	var states int64
	for _, t := range n.threads {
		if t.Auto == nil {
			size := z.block(t.Body, false)
			if size >= maxStates {
				return nil
			}
			states += size
		}
	}
	need := states * bytesPerState
	if m.Fits(need) {
		return nil
	}
	return &TooLarge{States: states, Need: need, Reason: m.TooLarge(
		fmt.Sprintf("compiling the program's automata (%s states)", budget.Count(states)), need)}
}
