package merged

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/conc-dev/conc/corpus"
)

// TextOptions shape the text: MaxGroups lists at most that many groups
// (0: all), Quiet leaves out the summary line.
type TextOptions struct {
	MaxGroups int
	Quiet     bool
}

// maxNotes is how many traces the text names that were not decided or
// cut short (the JSON has every trace).
const maxNotes = 20

// groupWords is how the text counts a group's members, by kind.
var groupWords = map[string]string{"broken": "broken transaction", "violating": "violating transaction",
	"predicted": "pattern", "joint": "joint violation"}

// WriteText prints s for a person: the worst verdict, the traces by
// verdict, the groups (at most o.MaxGroups) each with its example's
// explanation, the traces that were not decided or were cut short, and
// the summary line.
func WriteText(w io.Writer, s *corpus.Summary, o TextOptions) error {
	b := bufio.NewWriter(w)
	b.WriteString(s.Verdict() + "\n")
	writeTally(b, s)
	gs := ordered(s)
	if len(gs) > 0 {
		fmt.Fprintf(b, "%s across the traces (grouped by code locations, object ids normalised: docs/corpus.md)\n", plural(len(gs), "group"))
	}
	shown := gs
	if o.MaxGroups > 0 && len(shown) > o.MaxGroups {
		shown = shown[:o.MaxGroups]
	}
	for i := range shown {
		writeGroup(b, i+1, &shown[i])
	}
	if more := len(gs) - len(shown); more > 0 {
		fmt.Fprintf(b, "... and %s (--max-groups 0 shows all)\n", plural(more, "more group"))
	}
	writeNotes(b, s)
	if !o.Quiet {
		fmt.Fprintf(b, "%s over %s, %s\n", s.Command, plural(len(s.Traces), "trace"), plural(events(s), "event"))
	}
	return b.Flush()
}

// writeTally prints how many traces have each verdict.
func writeTally(b *bufio.Writer, s *corpus.Summary) {
	var parts []string
	n := tally(s)
	for _, k := range []int{2, 0, 1, 3} { // violation, serializable, unknown, error
		if n[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", corpus.Verdicts[k], n[k]))
		}
	}
	fmt.Fprintf(b, "%s", plural(len(s.Traces), "trace"))
	if len(parts) > 0 {
		fmt.Fprintf(b, ": %s", strings.Join(parts, ", "))
	}
	b.WriteString("\n")
}

// writeGroup prints group number k: its count, traces and first example,
// its signature and the example's explanation.
func writeGroup(b *bufio.Writer, k int, g *corpus.Group) {
	x := &g.Ex
	fmt.Fprintf(b, "group %d: %s in %s, first in %s at line %d", k, plural(g.Count, groupWords[g.Kind]),
		plural(g.Traces, "trace"), x.Trace, x.Line)
	if len(x.Vars) > 0 {
		b.WriteString(", on " + strings.Join(x.Vars, ", "))
	}
	b.WriteString("\n  signature: " + g.Signature + "\n")
	for _, l := range x.Explanation {
		b.WriteString(l + "\n")
	}
}

// writeNotes names the traces that were not decided, could not be
// checked, or whose groups were cut short, at most maxNotes of them.
func writeNotes(b *bufio.Writer, s *corpus.Summary) {
	var notes []string
	for _, t := range s.Traces {
		switch {
		case t.Verdict == "error" || t.Verdict == "unknown":
			notes = append(notes, fmt.Sprintf("  %s: %s: %s", t.Name, t.Verdict, t.Reason))
		case t.Incomplete != "":
			notes = append(notes, fmt.Sprintf("  %s: the groups may not be all: %s", t.Name, t.Incomplete))
		}
	}
	if len(notes) == 0 {
		return
	}
	b.WriteString("traces not decided, not checked, or cut short:\n")
	for i, n := range notes {
		if i == maxNotes {
			fmt.Fprintf(b, "  ... and %d more (the JSON lists every trace)\n", len(notes)-maxNotes)
			break
		}
		b.WriteString(n + "\n")
	}
}

// Write writes s in format, "text" (WriteText with o) or "json"
// (WriteJSON).
func Write(w io.Writer, s *corpus.Summary, format string, o TextOptions) error {
	if format == "json" {
		return WriteJSON(w, s)
	}
	return WriteText(w, s, o)
}
