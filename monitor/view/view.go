package view

import (
	"context"
	"time"

	"github.com/conc-dev/conc/trace"
)

// DefaultMaxStates is the exact search's budget when Options.MaxStates is
// 0: the search nodes (each a round of propagation over the open
// choices) it may visit before it answers Unknown.
const DefaultMaxStates = 1_000_000

// Options configure Check.
type Options struct {
	// MaxStates bounds the exact search (0: DefaultMaxStates); it also
	// bounds the polygraph's choices, which the search needs in memory.
	MaxStates int64
	// LockEdges makes serial orders also keep a lock's passing from
	// release to acquire, fork before the forked thread, the joined
	// thread before its join, and the orderings of docs/spec.md §3 (a
	// post before its waits, a give before its take), as the conflict
	// criterion's --lock-edges makes them conflict. Without it only
	// program order constrains them.
	LockEdges bool
	// NotAtomic, if set, names the begins of blocks that are not
	// transactions (--not-atomic, trace.BlockFilter): their begin and
	// end are dropped. It runs where the reader does.
	NotAtomic func(begin *trace.Event) bool
	// searchOnly skips the fast paths (the conflict graph, the one-variable
	// case), so that the tests hold the search alone to the reference.
	searchOnly bool
}

// Verdict is Check's answer.
type Verdict int8

const (
	Serializable Verdict = iota // a view-equivalent serial order exists (Result.Order)
	Violation                   // none does (Result.Why)
	Unknown                     // a budget ended the search (Result.Reason)
)

func (v Verdict) String() string {
	return [...]string{"serializable", "violation", "unknown"}[v]
}

// Txn is one transaction of the trace: its thread and the trace lines of
// its first and last event (Begin == End for a unary one); End is -1 for
// a transaction open at the end of the trace.
type Txn struct {
	Thread     int32
	Begin, End int64
}

// Result is Check's answer.
type Result struct {
	Verdict Verdict
	// Order is, for Serializable, a view-equivalent serial order of every
	// transaction of the trace, unary ones included.
	Order []Txn
	// Why is, for Violation, what no serial order keeps: a read (or a
	// final write) and the precedences that rule out every place for it.
	Why []Obstacle
	// Reason says, for Unknown, which budget ended the search.
	Reason string
	// Decided names the stage that answered (Stage's constants).
	Decided Stage
	// Threads, Vars, Locks and Msgs are the trace's names, indexed by
	// the ids the obstacles and Order use (Names spells them).
	Threads, Vars, Locks, Msgs []string
	Stats                      Stats
}

// Stage is the step of Check's decision that answered.
type Stage string

const (
	StageLocal    Stage = "local"    // one transaction's reads no serial order keeps
	StageConflict Stage = "conflict" // the conflict graph is acyclic
	StageArcs     Stage = "arcs"     // the polygraph's arcs alone close a cycle
	StageOneVar   Stage = "one-variable"
	StageSearch   Stage = "search"
	StageEmpty    Stage = "empty" // no transaction
	StageRead     Stage = "read"  // the context ended the reading (Unknown)
)

// Stats measure Check's work.
type Stats struct {
	Events  int64 // events read
	Txns    int64 // transactions
	Arcs    int64 // the polygraph's arcs before the search (reads-from, program order, ...)
	Choices int64 // the polygraph's choices the search had to make
	States  int64 // search nodes visited
	// Obstacles counts the obstacles found; Why lists at most 32.
	Obstacles int64
	Millis    int64
}

// Check reads the trace r to its end and decides whether it is
// view-serializable. It keeps what the decision needs: per transaction
// its thread and lines, per read of another transaction's write the
// reads-from arc, per variable its writers (docs/traces.md, "View
// serializability", says how much that is). A bad line is an error; the
// context's end while reading or searching is Unknown.
func Check(ctx context.Context, r *trace.Reader, o Options) (Result, error) {
	start := time.Now()
	if o.MaxStates <= 0 {
		o.MaxStates = DefaultMaxStates
	}
	b := newBuilder(o.LockEdges)
	if o.NotAtomic != nil {
		b.filter = trace.NewBlockFilter(o.NotAtomic)
	}
	stopped, err := b.read(ctx, r)
	if err != nil {
		return Result{}, err
	}
	res := Result{Threads: r.Threads().Names(), Vars: r.Vars().Names(), Locks: r.Locks().Names(), Msgs: r.Msgs().Names()}
	if stopped != "" {
		res.Verdict, res.Reason, res.Decided = Unknown, stopped, StageRead
	} else {
		d := &decider{b: b, ctx: ctx, maxStates: o.MaxStates, searchOnly: o.searchOnly}
		d.decide(&res)
		if res.Stats.Obstacles == 0 {
			res.Stats.Obstacles = int64(len(res.Why))
		}
		res.Stats.Arcs, res.Stats.Choices, res.Stats.States = d.arcs, d.choices, d.states
	}
	res.Stats.Events, res.Stats.Txns = b.events, b.real
	res.Stats.Millis = time.Since(start).Milliseconds()
	return res, nil
}
