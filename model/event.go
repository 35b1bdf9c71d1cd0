package model

// Op is the kind of an event (docs/spec.md §1).
type Op uint8

const (
	OpSkip    Op = iota // no event: an epsilon move of an automaton
	OpBegin             // ▷, start of a transaction
	OpEnd               // ◁, end of a transaction
	OpRead              // read of a variable
	OpWrite             // write of a variable
	OpAcquire           // acquire of a lock
	OpRelease           // release of a lock
	OpFork              // fork of a thread (traces only)
	OpJoin              // join of a thread (traces only)
	// The orderings of docs/spec.md §3's extension (traces only).
	OpReadAcquire // read-acquire of a reader-writer lock
	OpReadRelease // read-release of a reader-writer lock
	OpPost        // post of a message: every post of it precedes every wait for it
	OpWait        // wait for a message
	OpGive        // give a token: a take of it may follow
	OpTake        // take a token: it needs one given and not yet taken
)

var opNames = [...]string{"skip", "begin", "end", "read", "write", "acquire", "release", "fork", "join",
	"read-acquire", "read-release", "post", "wait", "give", "take"}

// String is the op's name as docs/spec.md §5's JSON writes it.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op?"
}

// IsAccess reports a read or write.
func (o Op) IsAccess() bool { return o == OpRead || o == OpWrite }

// IsExtension reports an op of docs/spec.md §3's extension: read locks,
// messages and tokens.
func (o Op) IsExtension() bool { return o >= OpReadAcquire }

// IsSync reports a lock, fork, join or ordering event.
func (o Op) IsSync() bool { return o >= OpAcquire }

// HasTarget reports whether events of this op name a variable, lock or thread.
func (o Op) HasTarget() bool { return o >= OpRead }

// Event is one event of a thread. Target indexes Program.Vars for accesses,
// Program.Locks for acquire/release and Program.Threads for fork/join; it is
// -1 for begin, end and skip.
type Event struct {
	Op     Op
	Target int32
	Pos    Pos
}

// Same reports whether two events are the same letter (positions ignored).
func (e Event) Same(f Event) bool { return e.Op == f.Op && e.Target == f.Target }
