package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// conc predict --all (docs/predict.md, "Every group (--all)"; docs/spec.md
// §4): every group of predicted violations, each with one verified
// witness; the text lists at most --max-groups of them (building only
// their witnesses), the JSON all of them, each witness streamed as it is
// built and let go.

// runPredictAll is conc predict --all on one trace.
func runPredictAll(e *env, f *predictFlags, path string) int {
	if f.dot != "" || f.html != "" {
		return e.usagef("--dot and --html draw one witness run: give them without --all; run 'conc predict --help'")
	}
	r, closeTrace, err := openTrace(e, path, trace.Options{Lenient: f.lenient}, f.progress.enabled(e))
	if err != nil {
		return inputError(e, err)
	}
	defer closeTrace()
	outs, err := createOutputs(e, outputPaths{witness: f.witnessOut}, inputFiles(e, path))
	if err != nil {
		return e.usagef("%v", err)
	}
	defer outs.close()
	dl := f.deadline()
	defer withMemoryLimit(f.maxMemory)()
	ctx, stop := withinLimits(dl, f.maxMemory)
	defer stop()
	a, err := predict.All(ctx, r, f.predictOptions(dl))
	if err != nil {
		return predictFailed(e, err)
	}
	defer a.Close()
	a.Result, _ = settle(ctx, dl, a.Result, nil)
	var skipped report.Report // what --lenient skipped: standard error, or the JSON's tail
	reportSkipped(e, f.lenient, f.format, &skipped, r.Stats())
	if code, ok := writeGroupWitness(e, a, outs, max(f.group, 1)); !ok {
		return code
	}
	w := reportWriter(e, f.witnessOut)
	if f.format == "json" {
		err = writeAllJSON(ctx, w, a, &skipped)
	} else {
		a.Ahead = f.maxGroups // a batch builds no more witnesses than the text shows
		err = writeAllText(ctx, w, f, a)
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	return exitCode(a.Result.Verdict)
}

// writeGroupWitness writes group k's witness (numbered as the text and
// the JSON number them: the k-th group whose witness replays, in order of
// first line) to --witness-out. A k past the last such group is a usage
// error; without a violation the file is left empty, as for predict.
func writeGroupWitness(e *env, a *predict.AllOutcome, outs *outputs, k int) (int, bool) {
	if outs.witness == nil {
		return 0, true
	}
	shown := 0
	for g := range a.Groups {
		out, err := a.Witness(g)
		if err != nil {
			return e.errorf("%v", err), false
		}
		if out == nil {
			continue
		}
		if shown++; shown < k {
			continue
		}
		if err := predict.WriteSTD(outs.witness, out.Program, out.Result.Witness); err != nil {
			return e.usagef("--witness-out: %v", err), false
		}
		break
	}
	if shown < k && a.Result.Verdict == engines.Violation {
		return e.usagef("--group %d: %s a witness; run 'conc predict --help'", k, countHave(shown)), false
	}
	if err := outs.commitWitness(); err != nil {
		return e.usagef("--witness-out: %v", err), false
	}
	return 0, true
}

// countHave is "only 1 group has", "only 3 groups have".
func countHave(n int) string {
	if n == 1 {
		return "only 1 group has"
	}
	return fmt.Sprintf("only %d groups have", n)
}

// writeAllText prints the verdict (and its note), how many groups, then
// the groups in order of first line, at most --max-groups (0: all), each
// with its witness's cycle; a group whose witness does not replay is
// skipped and counted. The witnesses of groups not shown are not built.
func writeAllText(ctx context.Context, w io.Writer, f *predictFlags, a *predict.AllOutcome) error {
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
		return f.maxGroups == 0 || shown < f.maxGroups, writeAllGroup(b, shown, &a.Groups[k], out)
	})
	if err != nil {
		return err
	}
	if more := len(a.Groups) - k; more > 0 {
		// Below --max-groups, it was the deadline (stopBuilding) that cut
		// the list: --max-groups 0 would not show more.
		hint := "--max-groups 0 shows all"
		if f.maxGroups == 0 || shown < f.maxGroups {
			hint = "not shown: " + cutBy(ctx) + " before their witnesses were built"
		}
		fmt.Fprintf(b, "... and %s (%s)\n", count(more, "more group"), hint)
	}
	writeAllNotes(b, a)
	if !f.quiet {
		b.WriteString(report.SummaryLine(rep) + "\n")
	}
	return b.Flush()
}

// writeAllGroup prints one group: its count, first line, thread and
// variables, its signature, and its witness's cycle as predict shows one.
func writeAllGroup(b *bufio.Writer, k int, g *predict.AllGroup, out *predict.Outcome) error {
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
	fmt.Fprintf(b, "  witness: %s (%s)\n", count(len(out.Result.Witness.Run), "event"), g.Source)
	w := out.Result.Witness
	rep.Witness.SetBroken(rep.Naming(), out.Program, w.Run, brokenPaths(w))
	return report.WriteCycle(b, rep, "  ")
}

// writeAllNotes says what was left out: dropped groups, and a search cut
// short.
func writeAllNotes(b *bufio.Writer, a *predict.AllOutcome) {
	if n := a.Dropped(); n > 0 {
		fmt.Fprintf(b, "note: %s dropped: no witness of theirs replays (docs/predict.md)\n", count(n, "group"))
	}
	if a.Incomplete != "" && a.Result.Verdict == engines.Violation {
		fmt.Fprintf(b, "note: the groups may not be all: %s\n", a.Incomplete)
	}
}

// eachWitness builds the groups' witnesses in order, until the deadline
// (stopBuilding), and calls f with each that replays (a group whose
// witness does not is skipped, and counted by the outcome) until f says
// stop; it returns the index of the first group not looked at.
func eachWitness(ctx context.Context, a *predict.AllOutcome, f func(k int, out *predict.Outcome) (bool, error)) (int, error) {
	for k := range a.Groups {
		if stopBuilding(ctx, a, k) {
			return k, nil
		}
		out, err := a.Witness(k)
		if err != nil {
			return k, err
		}
		if out == nil {
			continue
		}
		if more, err := f(k, out); err != nil || !more {
			return k + 1, err
		}
	}
	return len(a.Groups), nil
}

// stopBuilding reports that the deadline (--timeout) or the memory budget came
// before group k's witness was built: the groups from k on are not shown,
// and Incomplete says so. Building a witness reads the spool once or
// twice, so a thousand groups of a large trace take a while (docs/predict.md).
func stopBuilding(ctx context.Context, a *predict.AllOutcome, k int) bool {
	if ctx.Err() == nil || a.Built(k) {
		return false
	}
	if a.Incomplete != "" {
		a.Incomplete += "; "
	}
	a.Incomplete += fmt.Sprintf("%s before the witnesses of the last %s were built (%s)", cutBy(ctx),
		count(len(a.Groups)-k, "group"), cutFlag(ctx))
	return true
}

// cutBy names what ended ctx (withinLimits'): the memory budget, whose
// watch cancels it too, or the deadline.
func cutBy(ctx context.Context) string {
	var ex *budget.Exceeded
	if errors.As(context.Cause(ctx), &ex) {
		return "the memory budget of " + budget.Format(ex.Limit) + " was reached"
	}
	return "the deadline came"
}

// cutFlag is the flag that raises what ended ctx.
func cutFlag(ctx context.Context) string {
	var ex *budget.Exceeded
	if errors.As(context.Cause(ctx), &ex) {
		return "--max-memory raises it"
	}
	return "--timeout"
}

// count is "1 group", "2 groups".
func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// allJSONHead, allJSONGroup and allJSONTail are --all's JSON object
// (docs/spec.md §5), written in parts: each group's witness is built,
// written and let go before the next.
type allJSONHead struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	Engine  string `json:"engine"`
}

type allJSONGroup struct {
	Group         int               `json:"group"`
	Signature     string            `json:"signature"`
	Count         int64             `json:"count"`
	First         int64             `json:"first"`
	Thread        string            `json:"thread"`
	Variables     []string          `json:"variables"`
	Source        string            `json:"source"`
	WitnessEvents int               `json:"witness_events"`
	Cycle         []allJSONConflict `json:"cycle"`
	Broken        []allJSONBroken   `json:"broken"`
	Schedule      allJSONSchedule   `json:"schedule"`
}

// allJSONBroken is a transaction of a group's cycle that its witness run
// breaks by itself: its index in the cycle (the transaction of the cycle
// pair's from) and the path that breaks it.
type allJSONBroken struct {
	Txn  int               `json:"txn"`
	Path []allJSONConflict `json:"path"`
}

// witnessBroken spells the broken transactions of the cycle of rep, the
// lean report of out's witness (an empty list: a joint violation).
func witnessBroken(rep *report.Report, out *predict.Outcome) []allJSONBroken {
	w := rep.Witness
	w.SetBroken(rep.Naming(), out.Program, out.Result.Witness.Run, brokenPaths(out.Result.Witness))
	broken := []allJSONBroken{}
	for _, x := range *w.Broken {
		b := allJSONBroken{Txn: x.Txn}
		for _, c := range x.Path {
			b.Path = append(b.Path, allJSONConflict{w.Event(c.From), w.Event(c.To)})
		}
		broken = append(broken, b)
	}
	return broken
}

// allJSONSchedule is a group's witness run as parts of the trace
// (predict.Schedule; docs/spec.md §5): a few words a thread and a segment
// where the run spelled out would be 10⁵ events.
type allJSONSchedule struct {
	Cut      []allJSONCut     `json:"cut"`
	Segments []allJSONSegment `json:"segments"`
}

type allJSONCut struct {
	Thread  string `json:"thread"`
	Through int64  `json:"through_line"`
}

type allJSONSegment struct {
	Thread string `json:"thread"`
	From   int64  `json:"from_line"`
	To     int64  `json:"to_line"`
}

// jsonSchedule spells out a witness's schedule.
func jsonSchedule(sch predict.Schedule) allJSONSchedule {
	js := allJSONSchedule{Cut: []allJSONCut{}, Segments: []allJSONSegment{}}
	for _, c := range sch.Cut {
		js.Cut = append(js.Cut, allJSONCut{c.Thread, c.Through})
	}
	for _, sg := range sch.Segments {
		js.Segments = append(js.Segments, allJSONSegment{sg.Thread, sg.From, sg.To})
	}
	return js
}

// allJSONConflict is one conflict of a group's witness cycle, its two
// events spelled as the witness run's are.
type allJSONConflict struct {
	From report.Event `json:"from"`
	To   report.Event `json:"to"`
}

type allJSONTail struct {
	Incomplete   string           `json:"incomplete,omitempty"`
	Dropped      int              `json:"dropped"`
	Skipped      *int64           `json:"skipped,omitempty"`
	SkippedKinds map[string]int64 `json:"skipped_kinds,omitempty"`
	Stats        engines.Stats    `json:"stats"`
}

// writeAllJSON writes every group that has a verified witness, numbered
// from 1 as the text numbers them, with its witness's length, cycle and
// schedule (its run as parts of the trace: a thousand runs of 10⁵ events
// spelled out would be gigabytes), then the dropped count.
func writeAllJSON(ctx context.Context, w io.Writer, a *predict.AllOutcome, skipped *report.Report) error {
	b := bufio.NewWriter(w)
	reason := a.Result.Reason
	if a.Result.Verdict == engines.Serializable && len(a.Program.Threads) == 0 {
		reason = report.EmptyTraceNote
	}
	head, _ := marshal(allJSONHead{a.Result.Verdict.String(), reason, a.Result.Engine})
	b.Write(head[:len(head)-1])
	b.WriteString(`,"groups":[`)
	n := 0
	_, err := eachWitness(ctx, a, func(k int, out *predict.Outcome) (bool, error) {
		rep, err := report.BuildLean(out.Program, out.Result)
		if err != nil {
			return false, err
		}
		g := a.Groups[k]
		n++
		jg := allJSONGroup{n, g.Signature, g.Count, g.First, g.Thread, nonNil(g.Vars), g.Source, len(out.Result.Witness.Run), nil, nil, jsonSchedule(a.Schedule(k, out))}
		for _, c := range rep.Witness.Cycle {
			jg.Cycle = append(jg.Cycle, allJSONConflict{rep.Witness.Event(c.From), rep.Witness.Event(c.To)})
		}
		jg.Broken = witnessBroken(rep, out)
		if n > 1 {
			b.WriteByte(',')
		}
		line, err := marshal(jg)
		b.WriteString("\n")
		b.Write(line)
		return true, err
	})
	if err != nil {
		return err
	}
	tail, _ := marshal(allJSONTail{a.Incomplete, a.Dropped(), skipped.Skipped, skipped.SkippedKinds, a.Result.Stats})
	b.WriteString("],")
	b.Write(tail[1:])
	b.WriteByte('\n')
	return b.Flush()
}

// marshal is json.Marshal without escaping <, > and & (as report's JSON:
// "<stdin>" stays readable), without the encoder's newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
