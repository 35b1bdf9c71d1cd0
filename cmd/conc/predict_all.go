package main

import (
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/report/predicted"
	"github.com/conc-dev/conc/trace"
)

// conc predict --all (docs/predict.md, "Every group (--all)"; docs/spec.md
// §4): every group of predicted violations, each with one verified
// witness; report/predicted renders them, the text at most --max-groups
// (building only their witnesses), the JSON all of them.

// runPredictAll is conc predict --all on one trace.
func runPredictAll(e *env, f *predictFlags, path string) int {
	if f.dot != "" || f.html != "" {
		return e.usagef("--dot and --html draw one witness run: give them without --all; run 'conc predict --help'")
	}
	r, closeTrace, err := openTrace(e, path, trace.Options{Lenient: f.lenient, Orderings: true}, f.progress.Enabled(e.stderr))
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
	a, err := all.Find(ctx, r, f.predictOptions(dl))
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
		err = predicted.WriteAllJSON(ctx, w, a, &skipped)
	} else {
		err = predicted.WriteAllText(ctx, w, a, predicted.AllTextOptions{MaxGroups: f.maxGroups, Quiet: f.quiet})
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	return exitCode(a.Result.Verdict)
}

// writeGroupWitness writes group k's witness (predicted.GroupWitness) to
// --witness-out. A k past the last group with a witness is a usage error;
// without a violation the file is left empty, as for predict.
func writeGroupWitness(e *env, a *all.Outcome, outs *outputs, k int) (int, bool) {
	if outs.witness == nil {
		return 0, true
	}
	out, shown, err := predicted.GroupWitness(a, k)
	if err != nil {
		return e.errorf("%v", err), false
	}
	if out != nil {
		if err := predict.WriteSTD(outs.witness, out.Program, out.Result.Witness); err != nil {
			return e.usagef("--witness-out: %v", err), false
		}
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
