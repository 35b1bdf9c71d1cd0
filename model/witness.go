package model

// Step is one event of a run, made by thread Thread (an index into
// Program.Threads).
type Step struct {
	Thread int32
	Ev     Event
}

// Move is one edge taken by a thread: Edge indexes Out[From] of its automaton.
// Epsilon moves (skip, call, return) are moves too, so a path shows a
// recursive thread's calls and returns.
type Move struct {
	From int32
	Edge int32
}

// Conflict is one edge of the conflict cycle: events From and To (indices into
// the run, From < To) conflict, so From's transaction precedes To's.
type Conflict struct {
	From, To int
}

// Witness is a run that is not conflict-serializable, as data (docs/spec.md §5):
//   - Run is a run of the program;
//   - Paths[t] is the path thread t took in its automaton, from Init with the
//     empty stack; its non-epsilon moves emit exactly thread t's events of
//     Run, in order (a thread may also take trailing epsilon moves). A move
//     emits its edge's event, except that with LockEdges a lock, fork or
//     join edge taken outside a transaction emits the unary transaction
//     begin, the event, end (docs/spec.md §1; WrapUnarySync);
//   - Cycle is a cycle of the run's conflict graph: consecutive conflicts
//     chain through one transaction (the To event of one and the From event
//     of the next are in the same transaction) and the last returns to the
//     first's transaction.
//
// LockEdges records the conflict relation the cycle is stated in (docs/spec.md §1's
// --lock-edges).
type Witness struct {
	Run       []Step
	Paths     [][]Move
	Cycle     []Conflict
	LockEdges bool
}
