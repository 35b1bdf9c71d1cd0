package view

import "github.com/conc-dev/conc/model"

// ObstacleKind is the shape of an obstacle: what no serial order keeps.
type ObstacleKind uint8

const (
	// OwnWriteLost: a transaction reads a variable after writing it, but
	// the read sees another transaction's write (Events: the read, the
	// write it sees, the transaction's own earlier write). Serially it
	// would see its own.
	OwnWriteLost ObstacleKind = iota
	// SplitRead: two reads of a variable by one transaction, before any
	// write of its own, see different writes (Events: the later read, the
	// write it sees, the write the earlier read saw). Serially both see
	// the same.
	SplitRead
	// StaleRead: a read sees a write its transaction overwrites later
	// (Events: the read, the write it sees, the later write). Serially it
	// would see the later one.
	StaleRead
	// Cycle: the facts of Paths[0] form a cycle of precedences every
	// serial order must keep.
	Cycle
	// NoPlace: a writer of a variable can go neither before the write a
	// read sees nor after the read (Events: the read, the write it sees,
	// the other writer's write; Paths: why the writer comes after the
	// source, and why before the reader).
	NoPlace
	// Exhausted: the search tried every place for the writers of
	// Paths[0]'s choices, and each broke some read (Paths[0]: the
	// choices open after the forced ones, each a fact of kind Choice).
	Exhausted
)

// Event is an event an obstacle or fact names: the transaction, trace
// line, op (read or write) and variable. The initial value is a write at
// line 0 of no transaction (Txn.Thread -1).
type Event struct {
	Txn  Txn
	Line int64
	Op   model.Op
	Var  int32
}

// Obstacle is one reason why no serial order is view-equivalent to the
// trace.
type Obstacle struct {
	Kind   ObstacleKind
	Var    int32
	Events []Event
	Paths  [][]Fact
}

// FactKind is why one transaction precedes another in every
// view-equivalent serial order.
type FactKind uint8

const (
	ProgramOrder FactKind = iota // one thread's transactions, in order (Var: the thread)
	ReadsFrom                    // After reads Var (Lines[1]) from Before's write (Lines[0])
	InitialRead                  // Before reads Var's initial value (Lines[0]); After writes Var (Lines[1])
	FinalWrite                   // Before writes Var (Lines[0]); After's write (Lines[1]) is its final one
	BeforeFinal                  // Before reads Var (Lines[0]) from a write other than After's final one (Lines[1])
	Choice                       // Before/After place a writer of Var around a read (Lines: the writer's write, the write read, the read; Third: the reader or the source)
	LockPass                     // Before releases lock Var (Lines[0]), After acquires it (Lines[1]) (LockEdges)
	Fork                         // Before forks thread Var (Lines[0]), After is its first transaction (LockEdges)
	Join                         // Before is thread Var's last transaction, After joins it (Lines[1]) (LockEdges)
	Message                      // a post of message Var before its waits (LockEdges)
	Token                        // a give of token Var (Lines[0]) before the take that takes it (Lines[1]) (LockEdges)
	SourceNext                   // Before reads Var (Lines[0]) from a write of After's thread before After's write (Lines[1])
	ReaderPrev                   // Before's write of Var (Lines[0]) precedes, in its thread, After's reader's read (Lines[1]) of After's write
	Conflict                     // a conflict of the conflict graph on Var (the fast path's)
)

// Fact is one precedence of a cycle: Before comes before After, because
// of Kind's reason over Var and the events at Lines. For a Choice, Third
// is the other transaction of the read it keeps, and Forced says that the
// other place closed a cycle. An Open choice is the choice itself: the
// writer Before goes before After (the write the read sees) or after
// Third (the reader).
type Fact struct {
	Kind          FactKind
	Before, After Txn
	Var           int32
	Lines         [3]int64
	Third         Txn
	Forced, Open  bool
}

// rawObstacle is a local obstacle while the trace is read: its events
// name nodes, whose lines are known only at the end.
type rawObstacle struct {
	kind   ObstacleKind
	x      int32
	events []rawEvent
}

type rawEvent struct {
	node int32
	line int64
	op   model.Op
}

// obstacle is a local obstacle of kind on x: the read by node reader at
// line that sees w; the kind adds its third event.
func (b *builder) obstacle(kind ObstacleKind, x, reader int32, line int64, w src) rawObstacle {
	return rawObstacle{kind: kind, x: x, events: []rawEvent{{reader, line, model.OpRead}, {w.node, w.line, model.OpWrite}}}
}

// resolve is o with its transactions' lines.
func (b *builder) resolve(o rawObstacle) Obstacle {
	out := Obstacle{Kind: o.kind, Var: o.x}
	for _, e := range o.events {
		out.Events = append(out.Events, b.event(e.node, e.line, o.x, e.op))
	}
	return out
}

// event is the event of node n at line.
func (b *builder) event(n int32, line int64, x int32, op model.Op) Event {
	return Event{Txn: b.txn(n), Line: line, Op: op, Var: x}
}

// txn is node n as a Txn (the initial value's for -1).
func (b *builder) txn(n int32) Txn {
	if n < 0 {
		return Txn{Thread: -1}
	}
	nd := b.nodes[n]
	return Txn{Thread: nd.thread, Begin: nd.begin, End: nd.end}
}
