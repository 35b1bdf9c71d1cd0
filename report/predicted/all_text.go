package predicted

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/report"
)

// AllTextOptions are the text's flags: MaxGroups lists at most that many
// groups (--max-groups; 0: all), Quiet leaves out the summary line.
type AllTextOptions struct {
	MaxGroups int
	Quiet     bool
}

// WriteAllText prints the verdict (and its note), how many groups, then
// the groups in order of first line, at most o.MaxGroups, each with its
// witness's cycle; a group whose witness does not replay is skipped and
// counted. The witnesses of groups not shown are not built: a batch
// builds no more than the text shows (all.Outcome.Ahead).
func WriteAllText(ctx context.Context, w io.Writer, a *all.Outcome, o AllTextOptions) error {
	a.Ahead = o.MaxGroups
	rep, err := report.BuildLean(a.Program, a.Result)
	if err != nil {
		return err
	}
	traceNote(rep)
	b := bufio.NewWriter(w)
	if err := report.WriteText(b, rep, report.TextOptions{Quiet: true}); err != nil {
		return err
	}
	if n := len(a.Groups); n > 0 {
		fmt.Fprintf(b, "%s of predicted violations, by the code locations of the interrupted transaction's two accesses (docs/predict.md)\n",
			count(n, "group"))
	}
	shown := 0
	k, err := eachWitness(ctx, a, func(k int, out *predict.Outcome) (bool, error) {
		shown++
		return o.MaxGroups == 0 || shown < o.MaxGroups, writeAllGroup(b, shown, &a.Groups[k], out)
	})
	if err != nil {
		return err
	}
	if more := len(a.Groups) - k; more > 0 {
		// Below --max-groups, it was the deadline (stopBuilding) that cut
		// the list: --max-groups 0 would not show more.
		hint := "--max-groups 0 shows all"
		if o.MaxGroups == 0 || shown < o.MaxGroups {
			hint = "not shown: " + cutBy(ctx) + " before their witnesses were built"
		}
		fmt.Fprintf(b, "... and %s (%s)\n", count(more, "more group"), hint)
	}
	writeAllNotes(b, a)
	if !o.Quiet {
		b.WriteString(report.SummaryLine(rep) + "\n")
	}
	return b.Flush()
}

// writeAllGroup prints one group: its count, first line, thread and
// variables, its signature, and its witness's cycle as predict shows one.
func writeAllGroup(b *bufio.Writer, k int, g *all.Group, out *predict.Outcome) error {
	rep, err := report.BuildLean(out.Program, out.Result)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "group %d: %s, first at line %d, thread %s", k, count(int(g.Count), "pattern"), g.First,
		rep.Naming().Thread(g.Thread))
	if len(g.Vars) > 0 {
		b.WriteString(", on " + strings.Join(g.Vars, ", "))
	}
	b.WriteString("\n  signature: " + g.Signature + "\n")
	return writeWitness(b, g, rep, out)
}

// writeWitness prints a group's witness under its signature line: its
// length and finder, then its cycle (rep is out's lean report).
func writeWitness(b *bufio.Writer, g *all.Group, rep *report.Report, out *predict.Outcome) error {
	fmt.Fprintf(b, "  witness: %s (%s)\n", count(len(out.Result.Witness.Run), "event"), g.Source)
	setBroken(rep, out)
	return report.WriteCycle(b, rep, "  ")
}

// writeAllNotes says what was left out: dropped groups, and a search cut
// short.
func writeAllNotes(b *bufio.Writer, a *all.Outcome) {
	if n := a.Dropped(); n > 0 {
		fmt.Fprintf(b, "note: %s dropped: no witness of theirs replays (docs/predict.md)\n", count(n, "group"))
	}
	if a.Incomplete != "" && a.Result.Verdict == engines.Violation {
		fmt.Fprintf(b, "note: the groups may not be all: %s\n", a.Incomplete)
	}
}
