package report

import (
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// Report is one answer resolved to names and positions: the data every
// renderer prints. Its JSON encoding is exactly docs/spec.md §5's object; fields
// tagged "-" are for the text and DOT renderers only.
type Report struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	Engine  string `json:"engine"`
	Class   string `json:"class"`
	Threads int    `json:"threads"`
	Vars    int    `json:"vars"`
	Locks   int    `json:"locks"`

	// Skipped is how many trace lines --lenient skipped, and SkippedKinds
	// how many of each kind (docs/spec.md §3): Skipped is left out without
	// --lenient, SkippedKinds when nothing was skipped.
	Skipped      *int64           `json:"skipped,omitempty"`
	SkippedKinds map[string]int64 `json:"skipped_kinds,omitempty"`

	// Criterion is "view" for conc monitor --criterion view (absent for
	// the conflict criterion, whose report is as it always was);
	// Transactions counts the trace's transactions, DecidedBy names the
	// stage that answered, Order is a view-equivalent serial order
	// (serializable) and Obstacles say why none is (violation): report/view.go.
	Criterion    string         `json:"criterion,omitempty"`
	Transactions *int64         `json:"transactions,omitempty"`
	DecidedBy    string         `json:"decided_by,omitempty"`
	Order        []ViewTxn      `json:"order,omitempty"`
	Obstacles    []ViewObstacle `json:"obstacles,omitempty"`
	// ObstaclesFound counts the obstacles found (a violation); Obstacles
	// lists at most 32 of them.
	ObstaclesFound *int64 `json:"obstacles_found,omitempty"`

	Witness *Witness `json:"witness,omitempty"`

	// First and Violations are filled by conc monitor for traces: the trace
	// line at which the trace stopped being serializable, and every
	// transaction on a cycle. Both are omitted when empty.
	First      int         `json:"first,omitempty"`
	Violations []Violation `json:"violations,omitempty"`
	// Violating counts the violating transactions (conc monitor; nil
	// otherwise), and Groups sorts them by signature (GroupViolations).
	Violating *int64  `json:"violating,omitempty"`
	Groups    []Group `json:"groups,omitempty"`
	// NonAtomic counts the transactions broken by themselves (conc
	// monitor's default answer, report/blame.go), NonAtomicGroups groups
	// them by signature, in order of their first begin, and NonAtomicTxns
	// lists them (the JSON; nil for the text). Joint is the joint
	// violation (one cycle) of a non-serializable trace none of whose
	// transactions is broken by itself; OnCycle counts the transactions on
	// a cycle.
	NonAtomic *int64 `json:"non_atomic,omitempty"`
	// NonAtomicUnknown says why the broken transactions were not decided
	// (NonAtomic is then nil).
	NonAtomicUnknown string      `json:"non_atomic_unknown,omitempty"`
	NonAtomicGroups  []Group     `json:"non_atomic_groups,omitempty"`
	NonAtomicTxns    []BrokenTxn `json:"non_atomic_transactions,omitempty"`
	Joint            []Group     `json:"joint,omitempty"`
	OnCycle          *int64      `json:"on_cycle,omitempty"`
	// TraceLines is the trace's length in lines (conc monitor), for the
	// note on a broken transaction that spans most of it.
	TraceLines int `json:"-"`
	// naming is how the prose names the threads (Naming).
	naming Naming
	// TxnLines names each transaction of the witness's cycle with its
	// lines in the text and the DOT, "T0#1 (lines 1-open)" (conc predict:
	// a trace's lines).
	TxnLines bool `json:"-"`
	// ShowGroups bounds the groups WriteText lists and WriteDOT draws
	// (conc monitor's --max-groups; 0: all); the JSON has them all.
	ShowGroups int `json:"-"`

	Stats engines.Stats `json:"stats"`
}

// Witness is a non-serializable run and a cycle of its conflict graph.
// Run is the run spelled out; a lean report (BuildLean) leaves it nil, and
// Len and Event read the run either way.
type Witness struct {
	Run   []Event    `json:"run"`
	Cycle []Conflict `json:"cycle"`
	// Txns are the transactions of the cycle, in cycle order: Txns[i] holds
	// Cycle[i].From and Cycle[i-1].To.
	Txns []Txn `json:"-"`
	// LockEdges records that release→acquire and fork/join events conflict.
	LockEdges bool `json:"-"`
	// STDEvents is how many events conc predict's --witness-out writes
	// (the run without the begin and end around its unary events, which
	// an STD trace leaves bare); the text names it when it differs from
	// the run's length. 0: not a predicted witness.
	STDEvents int `json:"-"`
	// Broken are the cycle's transactions that the run breaks by itself
	// (SetBroken; conc predict): nil when not asked, empty for a joint
	// violation.
	Broken *[]WitnessBroken `json:"broken,omitempty"`
	// lean, when set, is the run Run would spell out (BuildLean); Run is
	// nil then. Len and Event read either.
	lean *leanRun
	// nth is each transaction's ordinal among its thread's, kept by
	// spellOut for Window (Event has no room for it).
	nth []int
}

// Event is one event of the witness run.
type Event struct {
	Thread string `json:"thread"`
	Op     string `json:"op"`
	Target string `json:"target,omitempty"`
	Pos    string `json:"pos,omitempty"`
	// Txn indexes the run's transactions (-1 for a lock event outside any
	// transaction when lock events make no conflict).
	Txn int `json:"-"`
	// OnCycle marks the events named by a cycle conflict.
	OnCycle bool `json:"-"`
}

// Conflict is one edge of the cycle: run events From < To conflict.
type Conflict struct {
	From int `json:"from"`
	To   int `json:"to"`
	// Words explains the conflict in a sentence; Label in a few words.
	Words string `json:"-"`
	Label string `json:"-"`
}

// Txn is one transaction of the run on the cycle: its thread, its ordinal
// among that thread's transactions (1-based) and its events (run indices).
// Begin is the line of its first event (0 if it has no position), End that
// of its end event (0 if the run stops before it: open).
type Txn struct {
	ID         int
	Thread     string
	Nth        int
	Events     []int
	Begin, End int
}

// Violation is one transaction of a trace on a conflict cycle (conc monitor).
// Begin is the trace line of its begin (of its one event if unary); End is
// the line of its end, nil while the transaction is open.
type Violation struct {
	Thread string      `json:"thread"`
	Begin  int         `json:"begin"`
	End    *int        `json:"end"`
	Cycle  []TraceStep `json:"cycle"`
	// Elided counts the transactions left out of the middle of a long
	// cycle (see --max-cycle); they lie between Cycle[ElidedAt-1] and
	// Cycle[ElidedAt].
	Elided   int `json:"elided,omitempty"`
	ElidedAt int `json:"elided_at,omitempty"`
	// Out and In are the lines of its own events where the cycle leaves it
	// and comes back (In 0 if an elided cycle does not show it).
	Out, In int `json:"-"`
	group   int // its index in Report.Groups (GroupViolations)
}

// elidedBefore reports whether the elided middle of the cycle comes just
// before Cycle[j] (j = len(Cycle): before the cycle closes).
func (v *Violation) elidedBefore(j int) bool { return v.Elided > 0 && j == v.ElidedAt }

// TraceStep is one event of a trace, by thread and line.
type TraceStep struct {
	Thread string `json:"thread"`
	Line   int    `json:"line"`
	// Begin is the begin line of its transaction (of the event if unary).
	Begin int `json:"-"`
}

// NoThreadsNote is the note on the answer for a program without threads (an
// empty file, or one of declarations and procedures only): its one run is
// the empty run, so it is serializable, which is rarely what was meant. It
// is the report's Reason, which on a verdict other than unknown is a note.
const NoThreadsNote = "the program has no threads"

// EmptyTraceNote is NoThreadsNote for a trace, in a trace's words: a trace
// without events (an empty file, or every line skipped).
const EmptyTraceNote = "the trace has no events"

// Build resolves res against p, spelling out every event of the witness
// run (Witness.Run). It fails, rather than panics, when the witness does
// not fit the program (an index out of range), which would be an engine
// bug. The commands use BuildLean, which renders the same bytes without
// the spelled-out run; Build is the reference the tests hold BuildLean
// to, and suits a library user who wants the run as data.
func Build(p *model.Program, res engines.Result) (*Report, error) {
	r, err := BuildLean(p, res)
	if err == nil && r.Witness != nil {
		r.Witness.spellOut()
	}
	return r, err
}

// BuildLean is Build without Witness.Run: the witness keeps res's run (not
// a copy; the caller must not change it) and p's names, and the renderers
// spell each event as they write it, so a run of millions of events costs
// no more than the engine's own. Witness.Len and Witness.Event read it.
func BuildLean(p *model.Program, res engines.Result) (*Report, error) {
	r := &Report{
		Verdict: res.Verdict.String(),
		Reason:  res.Reason,
		Engine:  res.Engine,
		Class:   p.Class().String(),
		Threads: len(p.Threads),
		Vars:    len(p.Vars),
		Locks:   len(p.Locks),
		Stats:   res.Stats,
		naming:  programNaming(p),
	}
	if res.Verdict == engines.Serializable && len(p.Threads) == 0 {
		// Over any engine's own note: a shortcut's reason ("no violation
		// even with locks, fork and join dropped") says nothing here.
		r.Reason = NoThreadsNote
	}
	if res.Verdict == engines.Violation && res.Witness != nil {
		w, err := buildWitness(r.naming, p, res.Witness)
		if err != nil {
			return nil, err
		}
		r.Witness = w
	}
	return r, nil
}

func buildWitness(n Naming, p *model.Program, mw *model.Witness) (*Witness, error) {
	for i, s := range mw.Run {
		if s.Thread < 0 || int(s.Thread) >= len(p.Threads) {
			return nil, fmt.Errorf("report: run event %d: thread %d out of range", i, s.Thread)
		}
		if _, err := targetName(p, s.Ev); err != nil {
			return nil, fmt.Errorf("report: run event %d: %v", i, err)
		}
	}
	w := &Witness{LockEdges: mw.LockEdges, Cycle: []Conflict{}}
	for i, c := range mw.Cycle {
		if c.From < 0 || c.To >= len(mw.Run) || c.From >= c.To {
			return nil, fmt.Errorf("report: cycle conflict %d (%d, %d) is not a pair of run events in order", i, c.From, c.To)
		}
		w.Cycle = append(w.Cycle, explain(n, p, mw.Run, c))
	}
	w.lean = &leanRun{p: p, run: mw.Run}
	w.Txns, w.lean.txn = cycleTxns(p, mw)
	txnLines(mw.Run, w.Txns)
	return w, nil
}

// programNaming is the naming of p's threads.
func programNaming(p *model.Program) Naming {
	names := make([]string, len(p.Threads))
	for i, t := range p.Threads {
		names[i] = t.Name
	}
	return NamingOf(names)
}

// Naming is how r's prose names its threads.
func (r *Report) Naming() Naming { return r.naming }

// spellOut fills Run from the lean run, every event with its transaction.
func (w *Witness) spellOut() {
	l := w.lean
	txns, nth := transactions(l.run, w.LockEdges)
	w.nth = nth
	w.Run = make([]Event, len(l.run))
	for i := range w.Run {
		w.Run[i] = l.event(i)
		w.Run[i].Txn = txns[i]
	}
	w.lean = nil
}

// targetName is Program.TargetName with its indices checked.
func targetName(p *model.Program, e model.Event) (string, error) {
	var names []string
	switch e.Op {
	case model.OpRead, model.OpWrite:
		names = p.Vars
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		names = p.Locks
	case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
		names = p.Msgs
	case model.OpFork, model.OpJoin:
		if e.Target < 0 || int(e.Target) >= len(p.Threads) {
			return "", fmt.Errorf("%s of thread %d out of range", e.Op, e.Target)
		}
		return p.Threads[e.Target].Name, nil
	default:
		return "", nil
	}
	if e.Target < 0 || int(e.Target) >= len(names) {
		return "", fmt.Errorf("%s target %d out of range", e.Op, e.Target)
	}
	return names[e.Target], nil
}
