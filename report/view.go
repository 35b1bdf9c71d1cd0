package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/conc-dev/conc/engines"
)

// conc monitor --criterion view's answer (docs/spec.md §5): whether the
// trace is view-equivalent to a serial run of its transactions, with the
// serial order, or the obstacles in words. The driver (tracereport)
// words the obstacles, since report reads no trace.

// CriterionView is Report.Criterion for the view criterion.
const CriterionView = "view"

// ViewTxn is a transaction of the view answer: its thread, the lines of
// its first and last event, End nil while open.
type ViewTxn struct {
	Thread string `json:"thread"`
	Begin  int64  `json:"begin"`
	End    *int64 `json:"end"`
}

// ViewObstacle is one reason no serial order is view-equivalent: its
// kind, the variable it is about (none for a cycle through several), the
// transactions it names, and its words (what no serial order keeps, then
// one line per precedence that rules a place out).
type ViewObstacle struct {
	Kind         string    `json:"kind"`
	Variable     string    `json:"variable,omitempty"`
	Transactions []ViewTxn `json:"transactions"`
	Words        []string  `json:"words"`
}

// viewShown bounds the order's transactions and the obstacles the text
// lists without --all.
const viewShown = 12

// viewFix is what the text suggests for each kind of obstacle.
var viewFix = map[string]string{
	"own-write-lost": "another thread writes the variable inside the block: make the block's accesses to it exclusive (one lock held across the block), or end the block before the other write can come",
	"split-read":     "another thread writes the variable between the block's reads of it: hold one lock across the block's reads, or read it once",
	"stale-read":     "another thread reads the block's write before the block overwrites it: keep the intermediate write from being seen (one lock across the block), or write once",
	"cycle":          "the transactions named interleave so that no serial order explains what they read and write last: make them exclusive (one lock held across each), or split a block that need not be atomic (--not-atomic)",
	"no-place":       "the transactions named interleave so that no serial order explains what they read and write last: make them exclusive (one lock held across each), or split a block that need not be atomic (--not-atomic)",
	"exhausted":      "the writers named can be placed in no order that keeps every read: make their transactions exclusive (one lock held across each), or split a block that need not be atomic (--not-atomic)",
}

// writeView prints the view answer: the serial order, or the obstacles
// and what to fix.
func writeView(b *bufio.Writer, r *Report, o TextOptions) {
	switch r.Verdict {
	case "serializable":
		writeViewOrder(b, r, o)
	case "violation":
		writeObstacles(b, r, o)
	}
}

func writeViewOrder(b *bufio.Writer, r *Report, o TextOptions) {
	n := len(r.Order)
	if n == 0 {
		return
	}
	if r.DecidedBy != "conflict" {
		b.WriteString("not conflict-serializable (conc monitor --criterion conflict reports a violation), but view-serializable: the serial order below reads every value from the same write and leaves every variable with the same last write\n")
	}
	fmt.Fprintf(b, "serial order of the %s (view-equivalent to the trace):\n", plural(n, "transaction"))
	rows := r.orderRows()
	shown := len(rows)
	if !o.All && shown > viewShown {
		shown = viewShown
	}
	for _, row := range rows[:shown] {
		b.WriteString("  " + row.text + "\n")
	}
	if shown < len(rows) {
		fmt.Fprintf(b, "  ... and %d more transactions (--all lists them; --format json has them)\n", n-rows[shown].at)
	}
}

// orderRow is a line of the serial order: one transaction, or a run of
// three or more unary ones of one thread in a row; at is the index of
// its first in the order.
type orderRow struct {
	text string
	at   int
}

func (r *Report) orderRows() []orderRow {
	var rows []orderRow
	order := r.Order
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && unary(order[j]) && order[j].Thread == order[i].Thread {
			j++
		}
		if j-i >= 3 {
			rows = append(rows, orderRow{fmt.Sprintf("%s lines %d-%d (%d unary transactions)",
				r.naming.Thread(order[i].Thread), order[i].Begin, order[j-1].Begin, j-i), i})
			i = j
			continue
		}
		rows = append(rows, orderRow{r.viewTxnName(order[i]), i})
		i++
	}
	return rows
}

func unary(t ViewTxn) bool { return t.End != nil && *t.End == t.Begin }

func writeObstacles(b *bufio.Writer, r *Report, o TextOptions) {
	fmt.Fprintf(b, "no serial order of the %s is view-equivalent to the trace (docs/traces.md, \"View serializability\"):\n", plural64(derefOr(r.Transactions), "transaction"))
	shown := len(r.Obstacles)
	if !o.All && shown > 3 {
		shown = 3
	}
	var fixes []string
	for _, ob := range r.Obstacles[:shown] {
		for i, w := range ob.Words {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(w + "\n")
		}
		if fix := viewFix[ob.Kind]; fix != "" && !slices.Contains(fixes, fix) {
			fixes = append(fixes, fix)
		}
	}
	if more := derefOr(r.ObstaclesFound) - int64(shown); more > 0 {
		fmt.Fprintf(b, "... and %d more (%s)\n", more, listed(len(r.Obstacles)))
	}
	for _, fix := range fixes {
		b.WriteString("to fix: " + fix + "\n")
	}
}

// listed is which obstacles the report holds: all of them, or the first
// ones.
func listed(n int) string {
	if n < maxListed {
		return "--all lists them; --format json has them"
	}
	return fmt.Sprintf("--all and --format json list the first %d", n)
}

// maxListed is how many obstacles the checker lists at most.
const maxListed = 32

// viewTxnName is "T1 line 5", "T1 lines 3-9" or "T1 lines 3-open".
func (r *Report) viewTxnName(t ViewTxn) string {
	name := r.naming.Thread(t.Thread)
	switch {
	case t.End == nil:
		return fmt.Sprintf("%s lines %d-open", name, t.Begin)
	case *t.End == t.Begin:
		return fmt.Sprintf("%s line %d", name, t.Begin)
	}
	return fmt.Sprintf("%s lines %d-%d", name, t.Begin, *t.End)
}

func derefOr(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// viewSummary is the summary line of the view answer.
func viewSummary(r *Report) string {
	return fmt.Sprintf("%s program, %s, %s, %s; engine %s, view criterion (decided by %s): %s, %s, %s, %d ms",
		r.Class, plural(r.Threads, "thread"), plural(r.Vars, "var"), plural(r.Locks, "lock"), r.Engine,
		stageWords[r.DecidedBy], plural64(derefOr(r.Transactions), "transaction"),
		plural64(r.Stats.States, "state"), plural64(r.Stats.Events, "event"), r.Stats.Millis)
}

// stageWords name the stage that decided (Report.DecidedBy).
var stageWords = map[string]string{
	"local": "one transaction's reads", "conflict": "the conflict graph", "arcs": "the polygraph's arcs",
	"one-variable": "the one-variable case", "search": "the search", "empty": "no transaction", "read": "the reading",
}

// ViewAnswer is conc monitor --criterion view's answer in report's terms
// (tracereport converts the view checker's result).
type ViewAnswer struct {
	Verdict              engines.Verdict
	Reason               string
	Threads, Vars, Locks int
	Names                []string // the thread names, for the prose (Naming)
	Transactions         int64
	DecidedBy            string
	Order                []ViewTxn
	Obstacles            []ViewObstacle
	ObstaclesFound       int64
	Stats                engines.Stats
}

// BuildView is the report of a view answer.
func BuildView(a ViewAnswer) *Report {
	n := a.Transactions
	rep := &Report{Verdict: a.Verdict.String(), Reason: a.Reason, Engine: "monitor", Class: "straight-line",
		Threads: a.Threads, Vars: a.Vars, Locks: a.Locks, Criterion: CriterionView, Transactions: &n,
		DecidedBy: a.DecidedBy, Order: a.Order, Obstacles: a.Obstacles, Stats: a.Stats, naming: NamingOf(a.Names)}
	if a.Verdict == engines.Violation {
		found := a.ObstaclesFound
		rep.ObstaclesFound = &found
	}
	if rep.Threads == 0 && rep.Reason == "" {
		rep.Reason = EmptyTraceNote
	}
	return rep
}

// orderHole is the thread of the one transaction writeViewJSON encodes in
// place of the serial order, to find where to write the order itself.
const orderHole = "\x00order"

// writeViewJSON writes a view report as encoding/json would, but the
// serial order (a million transactions on a real trace) one transaction
// at a time into the place of a stand-in, so that the output is never
// built in memory whole (TestViewJSONStreamMatchesEncoder).
func writeViewJSON(w io.Writer, r *Report) error {
	shell := *r
	shell.Order = []ViewTxn{{Thread: orderHole}}
	var head bytes.Buffer
	if err := encodeJSON(&head, &shell); err != nil {
		return err
	}
	b := head.Bytes()
	open := bytes.Index(b, []byte(`"order": [`))
	hole := bytes.Index(b, []byte(`"\u0000order"`))
	if open < 0 || hole < 0 {
		return fmt.Errorf("report: internal error: no serial order in the JSON encoding")
	}
	closing := bytes.Index(b[hole:], []byte("\n  ]")) + hole
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(b[:open+len(`"order": [`)])
	q := newJSONQuoter()
	for i, t := range r.Order {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    {\n      \"thread\": ")
		bw.Write(q.quote(t.Thread))
		fmt.Fprintf(bw, ",\n      \"begin\": %d,\n      \"end\": ", t.Begin)
		if t.End == nil {
			bw.WriteString("null")
		} else {
			bw.WriteString(strconv.FormatInt(*t.End, 10))
		}
		bw.WriteString("\n    }")
	}
	bw.Write(b[closing:])
	return bw.Flush()
}
