package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TextOptions shape the text rendering.
type TextOptions struct {
	// Quiet leaves out the closing summary line (class, sizes, engine, stats).
	Quiet bool
	// All adds every violating transaction, one a line (conc monitor's
	// --all; Report.ShowGroups bounds the groups listed).
	All bool
	// Lead, when above 0, abridges the witness run (conc predict, whose
	// runs can be millions of events long): only the cycle's events are
	// shown, each after at most Lead events of its thread leading into it.
	// (Report.TxnLines, not Lead, names the cycle's transactions' lines.)
	Lead int
}

// WriteText prints r for a person (docs/spec.md §5): the verdict line first, then any
// note, the witness run with the cycle's events starred, the cycle in words
// and, unless quiet, a summary line.
func WriteText(w io.Writer, r *Report, o TextOptions) error {
	// Buffered, not built in memory: a monitor report can list a million
	// violations.
	b := bufio.NewWriterSize(w, 1<<16)
	b.WriteString(verdictLine(r) + "\n")
	if r.Reason != "" && r.Verdict != "unknown" {
		b.WriteString("note: " + r.Reason + "\n")
	}
	if r.Witness != nil {
		if o.Lead > 0 {
			writeLeadIn(b, r.Witness, o.Lead)
		} else {
			writeRun(b, r.Witness)
		}
		writeCycle(b, r.naming, r.Witness, r.TxnLines)
		writeBroken(b, r.naming, r.Witness, r.TxnLines)
	}
	if r.Criterion == CriterionView {
		writeView(b, r, o)
	} else if r.NonAtomic != nil || r.NonAtomicUnknown != "" {
		writeBlame(b, r, o)
	} else if r.Groups != nil {
		writeGroups(b, r, o)
	}
	if !o.Quiet {
		b.WriteString(SummaryLine(r) + "\n")
	}
	return b.Flush()
}

func verdictLine(r *Report) string {
	if r.Verdict != "unknown" {
		return r.Verdict
	}
	if r.Reason == "" {
		return "unknown: no reason given"
	}
	return "unknown: " + r.Reason
}

// writeRun prints the witness run in aligned columns: index, thread, event,
// position; a star marks the events that the cycle names. The columns are
// measured in a first pass and written in a second, as text/tabwriter would
// lay them out (two spaces of padding) but without holding the text: a
// predicted witness can run to millions of events. A lean run is measured
// from its names' widths, and each row is spelled into the same buffers,
// so the passes allocate nothing per event.
func writeRun(b *bufio.Writer, w *Witness) {
	b.WriteString("witness run (* marks the events of the cycle):\n")
	writeRows(b, w, nil)
}

// writeRows writes the run's rows that show marks (all if nil), a gap
// between two of them as "... N more events".
func writeRows(b *bufio.Writer, w *Witness, show []bool) {
	width := runWidths(w, show)
	var c [4][]byte
	n := w.Len()
	next := 0 // the first event not yet shown or skipped
	for i := range n {
		if show != nil && !show[i] {
			continue
		}
		if i > next {
			fmt.Fprintf(b, "  ... %s\n", plural(i-next, "more event"))
		}
		next = i + 1
		w.appendCells(&c, i)
		for k := range width {
			b.Write(c[k])
			pad(b, width[k]+2-utf8.RuneCount(c[k]))
			c[k] = c[k][:0]
		}
		b.Write(c[3])
		b.WriteByte('\n')
		c[3] = c[3][:0]
	}
	if n > next && show != nil {
		fmt.Fprintf(b, "  ... %s\n", plural(n-next, "more event"))
	}
}

// runWidths are the widths of the first three columns of the rows that
// show marks (all if nil).
func runWidths(w *Witness, show []bool) [3]int {
	var width [3]int
	if w.lean != nil {
		for i := range w.lean.run {
			if show != nil && !show[i] {
				continue
			}
			for k, n := range w.lean.cellWidths(i) {
				width[k] = max(width[k], n)
			}
		}
		return width
	}
	for i, e := range w.Run {
		if show != nil && !show[i] {
			continue
		}
		c := runCells(i, e)
		for k := range width {
			width[k] = max(width[k], utf8.RuneCountInString(c[k]))
		}
	}
	return width
}

// pad writes n spaces.
func pad(b *bufio.Writer, n int) {
	const spaces = "                                "
	for ; n > len(spaces); n -= len(spaces) {
		b.WriteString(spaces)
	}
	b.WriteString(spaces[:n])
}

// runCells are the cells of event i's row: mark and index, thread, event,
// position.
func runCells(i int, e Event) [4]string {
	mark := " "
	if e.OnCycle {
		mark = "*"
	}
	ev := e.Op
	if e.Target != "" {
		ev += " " + e.Target
	}
	return [4]string{"  " + mark + " " + strconv.Itoa(i), e.Thread, ev, textPosOf(e.Pos)}
}

// writeCycle names the transactions of the cycle (with their lines if
// lines), then gives each conflict in words, one a line.
func writeCycle(b *bufio.Writer, n Naming, w *Witness, lines bool) {
	var names []string
	for _, t := range w.Txns {
		name := txnName(n, t)
		if lines {
			name += t.lines()
		}
		names = append(names, name)
	}
	if len(names) > 0 {
		names = append(names, txnName(n, w.Txns[0]))
	}
	edges := ""
	if w.LockEdges {
		edges = " (release→acquire, fork and join also conflict: --lock-edges)"
	}
	fmt.Fprintf(b, "conflict cycle %s%s:\n", strings.Join(names, " → "), edges)
	for _, c := range w.Cycle {
		b.WriteString("  " + c.Words + "\n")
	}
}

// txnName is "A#2" for thread A's second transaction ("T0#2" for thread 0:
// n names the thread).
func txnName(n Naming, t Txn) string {
	if t.Nth == 0 {
		return n.Thread(t.Thread)
	}
	return fmt.Sprintf("%s#%d", n.Thread(t.Thread), t.Nth)
}

// SummaryLine is the text report's last line (the HTML page's too):
// the program's class and size, the engine and its statistics.
func SummaryLine(r *Report) string {
	if r.Criterion == CriterionView {
		return viewSummary(r)
	}
	return fmt.Sprintf("%s program, %s, %s, %s; engine %s: %s, %s, %d ms",
		r.Class, plural(r.Threads, "thread"), plural(r.Vars, "var"), plural(r.Locks, "lock"),
		r.Engine, plural64(r.Stats.States, "state"), plural64(r.Stats.Events, "event"), r.Stats.Millis)
}

func plural(n int, word string) string { return plural64(int64(n), word) }

func plural64(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// elision stands for the transactions left out of a long cycle's middle.
func elision(n int) string {
	if n == 1 {
		return "... 1 more transaction ..."
	}
	return fmt.Sprintf("... %d more transactions ...", n)
}
