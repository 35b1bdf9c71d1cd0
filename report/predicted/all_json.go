package predicted

import (
	"bufio"
	"context"
	"io"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/jsonout"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/report"
)

// allHead, allGroup and allTail are --all's JSON object (docs/spec.md
// §5), written in parts: each group's witness is built, written and let
// go before the next.
type allHead struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	Engine  string `json:"engine"`
}

type allGroup struct {
	Group         int           `json:"group,omitempty"` // 0 in a corpus's example (Examples), never in --all's list
	Signature     string        `json:"signature"`
	Count         int64         `json:"count"`
	First         int64         `json:"first"`
	Thread        string        `json:"thread"`
	Variables     []string      `json:"variables"`
	Source        string        `json:"source"`
	WitnessEvents int           `json:"witness_events"`
	Cycle         []allConflict `json:"cycle"`
	Broken        []allBroken   `json:"broken"`
	Schedule      Schedule      `json:"schedule"`
}

// allConflict is one conflict of a group's witness cycle, its two events
// spelled as the witness run's are.
type allConflict struct {
	From report.Event `json:"from"`
	To   report.Event `json:"to"`
}

// allBroken is a transaction of a group's cycle that its witness run
// breaks by itself: its index in the cycle (the transaction of the cycle
// pair's from) and the path that breaks it.
type allBroken struct {
	Txn  int           `json:"txn"`
	Path []allConflict `json:"path"`
}

type allTail struct {
	Incomplete   string           `json:"incomplete,omitempty"`
	Dropped      int              `json:"dropped"`
	Skipped      *int64           `json:"skipped,omitempty"`
	SkippedKinds map[string]int64 `json:"skipped_kinds,omitempty"`
	Stats        engines.Stats    `json:"stats"`
}

// WriteAllJSON writes every group that has a verified witness, numbered
// from 1 as the text numbers them, with its witness's length, cycle and
// schedule (its run as parts of the trace: a thousand runs of 10⁵ events
// spelled out would be gigabytes), then the dropped count and what
// --lenient skipped (skipped's Skipped and SkippedKinds).
func WriteAllJSON(ctx context.Context, w io.Writer, a *all.Outcome, skipped *report.Report) error {
	b := bufio.NewWriter(w)
	reason := a.Result.Reason
	if a.Result.Verdict == engines.Serializable && len(a.Program.Threads) == 0 {
		reason = report.EmptyTraceNote
	}
	head, _ := jsonout.Marshal(allHead{a.Result.Verdict.String(), reason, a.Result.Engine})
	b.Write(head[:len(head)-1])
	b.WriteString(`,"groups":[`)
	n := 0
	_, err := eachWitness(ctx, a, func(k int, out *predict.Outcome) (bool, error) {
		jg, err := groupJSON(a, k, out)
		if err != nil {
			return false, err
		}
		n++
		jg.Group = n
		if n > 1 {
			b.WriteByte(',')
		}
		line, err := jsonout.Marshal(jg)
		b.WriteString("\n")
		b.Write(line)
		return true, err
	})
	if err != nil {
		return err
	}
	tail, _ := jsonout.Marshal(allTail{a.Incomplete, a.Dropped(), skipped.Skipped, skipped.SkippedKinds, a.Result.Stats})
	b.WriteString("],")
	b.Write(tail[1:])
	b.WriteByte('\n')
	return b.Flush()
}

// groupJSON is group k with out, its witness (Group, its number, is the
// caller's).
func groupJSON(a *all.Outcome, k int, out *predict.Outcome) (allGroup, error) {
	rep, err := report.BuildLean(out.Program, out.Result)
	if err != nil {
		return allGroup{}, err
	}
	g := a.Groups[k]
	jg := allGroup{0, g.Signature, g.Count, g.First, g.Thread, jsonout.NonNil(g.Vars), g.Source, len(out.Result.Witness.Run), nil, nil, scheduleOf(a.Schedule(k, out))}
	for _, c := range rep.Witness.Cycle {
		jg.Cycle = append(jg.Cycle, allConflict{rep.Witness.Event(c.From), rep.Witness.Event(c.To)})
	}
	jg.Broken = witnessBroken(rep, out)
	return jg, nil
}

// witnessBroken spells the broken transactions of the cycle of rep, the
// lean report of out's witness (an empty list: a joint violation).
func witnessBroken(rep *report.Report, out *predict.Outcome) []allBroken {
	setBroken(rep, out)
	w := rep.Witness
	broken := []allBroken{}
	for _, x := range *w.Broken {
		b := allBroken{Txn: x.Txn}
		for _, c := range x.Path {
			b.Path = append(b.Path, allConflict{w.Event(c.From), w.Event(c.To)})
		}
		broken = append(broken, b)
	}
	return broken
}
