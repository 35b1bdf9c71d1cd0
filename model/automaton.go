package model

// StackOp is what a pushdown edge does to the stack.
type StackOp uint8

const (
	StackNone StackOp = iota
	StackPush         // push Sym
	StackPop          // enabled only when Sym is on top; pops it
)

// Edge is a transition of an automaton: from its source state to To, emitting
// Ev (no event when Ev.Op == OpSkip) and doing Stack with symbol Sym.
type Edge struct {
	To    int32
	Ev    Event
	Stack StackOp
	Sym   int32
}

// Automaton is a thread's local transition system (the paper's A_T or P_T):
// states 0..len(Out)-1, initial state Init, out-edges by state. It is a
// pushdown system when some edge pushes or pops. A run of the thread is any
// path from Init with the empty stack; every prefix of a run is a run.
//
// Invariants guaranteed by lang (and by every other builder):
//   - along every path, begin and end alternate, starting with begin, and
//     every read/write lies between a begin and its end (accesses outside
//     atomic blocks were compiled to begin; access; end);
//   - along every path the thread's lock events are locally valid (it never
//     acquires a lock it holds nor releases one it does not hold);
//   - whether a state is inside a transaction, and which locks are held there,
//     does not depend on the path (InTxn, Held).
type Automaton struct {
	Init    int32
	Out     [][]Edge
	Symbols []string // stack symbol names, for reports; index = Sym
	// InTxn[q] reports whether state q lies inside a transaction.
	InTxn []bool
	// Held[q] lists the locks held at state q, sorted.
	Held [][]int32
	// Names[q] optionally describes state q (a program point), for reports.
	Names []string
}

// NumStates is the number of states.
func (a *Automaton) NumStates() int { return len(a.Out) }

// NumEdges is the number of edges.
func (a *Automaton) NumEdges() int {
	n := 0
	for _, es := range a.Out {
		n += len(es)
	}
	return n
}

// Pushdown reports whether any edge uses the stack.
func (a *Automaton) Pushdown() bool {
	for _, es := range a.Out {
		for _, e := range es {
			if e.Stack != StackNone {
				return true
			}
		}
	}
	return false
}

// Terminal reports whether q has no out-edge (a finished straight-line thread).
func (a *Automaton) Terminal(q int32) bool { return len(a.Out[q]) == 0 }
