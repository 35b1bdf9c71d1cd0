package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/conc-dev/conc/internal/progress"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/report/predicted"
	"github.com/conc-dev/conc/trace"
)

func init() {
	register(&command{
		name:    "predict",
		args:    "TRACE [flags]",
		summary: "is any reordering of the trace non-serializable?",
		help:    traceHelp,
		run:     runPredict,
	})
}

// predictFlags are decideFlags plus what a trace needs: --lenient (docs/spec.md §3)
// and --witness-out (docs/spec.md §5).
type predictFlags struct {
	decideFlags
	lenient    bool
	witnessOut string
	progress   progress.Mode
	all        bool // every group of violations (predict_all.go)
	maxGroups  int
	group      int         // with --all and --witness-out: whose witness, from 1 (0: not given, the first shown)
	corpus     corpusFlags // several traces (corpus.go)
	criterion  string
}

func (f *predictFlags) register(fs *flag.FlagSet) {
	f.decideFlags.register(fs)
	fs.Lookup("max-states").Usage = predictMaxStatesHelp
	fs.BoolVar(&f.lenient, "lenient", false, lenientHelp)
	fs.Var(&f.progress, "progress", progressHelp)
	fs.StringVar(&f.witnessOut, "witness-out", "", "write the violating reordering as an STD trace to `FILE` (LOC: the original trace line; with --all, the first group's, or --group's) "+dashHelp)
	fs.BoolVar(&f.all, "all", false, "report every group of predicted violations (by the code locations of the interrupted transaction's two accesses), each with a verified witness")
	fs.IntVar(&f.maxGroups, "max-groups", 20, "with --all, list at most `N` groups in the text output (0: all)")
	groupVar(fs, &f.group)
	f.corpus.register(fs)
	fs.StringVar(&f.criterion, "criterion", "conflict", "`conflict` or view: a reordering that is not conflict-serializable, or two transactions that a reordering makes not view-serializable as a pair (Wang and Stoller's block test; docs/predict.md)")
}

// groupVar defines --group. The groups are numbered from 1, so 0 is
// refused like -1: read as "not given" it would quietly write group 1's
// witness for a user who counts from 0.
func groupVar(fs *flag.FlagSet, k *int) {
	fs.Func("group", "with --all and --witness-out, write group `K`'s witness (K as the text and the JSON number the groups, from 1; default: the first)",
		func(s string) error {
			v, err := strconv.Atoi(s)
			if err != nil || v < 1 {
				return errors.New("want 1 or more (a group's number)")
			}
			*k = v
			return nil
		})
}

// predictMaxStatesHelp states predict's default budgets (docs/spec.md §7,
// docs/predict.md).
var predictMaxStatesHelp = fmt.Sprintf("give up after `N` states with verdict unknown (0: no limit; default "+
	"without --timeout: %d chain states of the lock-free search; with locks, fork or join, %d states of "+
	"the lock-aware search, which is not tried on a projection of over %d states)",
	predict.DefaultChainStates, predict.DefaultMaxStates, predict.DefaultMaxSize)

// runPredict is conc predict: read one trace ("-" is standard input, .gz is
// inflated) and decide whether a reordering of its per-thread projections
// that respects locks, fork and join is not conflict-serializable.
func runPredict(e *env, args []string) int {
	var f predictFlags
	files, code, done := parseCommand(e, "predict", f.register, args)
	if done {
		return code
	}
	switch {
	case len(files) != 1 && !f.corpus.several(files):
		return e.errorf("predict: want one TRACE argument, got %d; run 'conc predict --help'", len(files))
	}
	if err := f.check(); err != nil {
		return e.usagef("%v; run 'conc predict --help'", err)
	}
	switch {
	case f.criterion != predict.Conflict && f.criterion != predict.View:
		return e.badFlag("criterion", f.criterion, "want conflict or view")
	case f.criterion == predict.View && (f.all || f.corpus.several(files)):
		return e.usagef("--criterion view reads one trace and answers with one pair: --all, several traces and --summary-out do not apply; run 'conc predict --help'")
	case f.maxGroups < 0:
		return e.badFlag("max-groups", f.maxGroups, "want 0 (all) or more")
	case f.group > 0 && (!f.all || f.witnessOut == ""):
		return e.usagef("--group chooses the group whose witness --witness-out writes: give it with --all and --witness-out; run 'conc predict --help'")
	case f.corpus.several(files):
		return runPredictCorpus(e, &f, files)
	case f.all:
		return runPredictAll(e, &f, files[0])
	}
	r, closeTrace, err := openTrace(e, files[0], trace.Options{Lenient: f.lenient, Orderings: true}, f.progress.Enabled(e.stderr))
	if err != nil {
		return inputError(e, err)
	}
	defer closeTrace()
	outs, err := createOutputs(e, outputPaths{dot: f.dot, html: f.html, witness: f.witnessOut}, inputFiles(e, files[0]))
	if err != nil {
		return e.usagef("%v", err)
	}
	defer outs.close()
	out, code := runPrediction(e, &f, r)
	if out == nil {
		return code
	}
	return finishPredict(e, &f, out, outs, r.Stats(), files[0])
}

// predictOptions are the flags as package predict takes them.
func (f *predictFlags) predictOptions(dl deadline) predict.Options {
	return predict.Options{Engine: f.engine, Check: f.options(), Criterion: f.criterion,
		Unbounded: f.maxStatesSet && f.maxStates == 0, DefaultDeadline: !dl.Given}
}

// runPrediction runs predict under --timeout; a nil outcome comes with the
// exit code of the error it reported.
func runPrediction(e *env, f *predictFlags, r *trace.Reader) (*predict.Outcome, int) {
	dl := f.deadline()
	defer withMemoryLimit(f.maxMemory)()
	ctx, stop := withinLimits(dl, f.maxMemory)
	defer stop()
	out, err := predict.Predict(ctx, r, f.predictOptions(dl))
	if err != nil {
		return nil, predictFailed(e, err)
	}
	out.Result, _ = settle(ctx, dl, out.Result, nil) // no error in, none out
	return out, 0
}

// predictFailed reports an error of package predict and returns its exit
// code: a usage error, a witness verify refused (an internal error), or
// bad input (trace errors read "file:line: reason").
func predictFailed(e *env, err error) int {
	var ue *predict.UsageError
	var we *predict.WitnessError
	switch {
	case errors.As(err, &ue):
		return e.errorf("predict: %v", err)
	case errors.As(err, &we):
		return unreplayable(e, we.Engine, we.Err)
	}
	fmt.Fprintln(e.stderr, err)
	return exitUsage
}

// finishPredict renders the answer (with st, what --lenient skipped), writes
// --dot, --html and --witness-out, and maps the verdict to the exit code.
func finishPredict(e *env, f *predictFlags, out *predict.Outcome, outs *outputs, st trace.Stats, path string) int {
	rep, err := predicted.Report(out)
	if err != nil {
		return e.errorf("internal error (please report): %v", err)
	}
	if err := predicted.SignFrom(rep, out, path); err != nil {
		return inputError(e, err)
	}
	reportSkipped(e, f.lenient, f.format, rep, st)
	if outs.witness != nil && out.Result.Witness != nil {
		if err := predict.WriteSTD(outs.witness, out.Program, out.Result.Witness); err != nil {
			return e.usagef("--witness-out: %v", err)
		}
	}
	if err := outs.commitWitness(); err != nil {
		return e.usagef("--witness-out: %v", err)
	}
	out.Result.Witness = nil // its paths: the report keeps the run, not them
	if err := renderPredict(reportWriter(e, f.dot, f.html, f.witnessOut), f, rep); err != nil {
		return e.errorf("%v", err)
	}
	if err := outs.writePictures(rep); err != nil {
		return e.usagef("%v", err)
	}
	return exitCode(out.Result.Verdict)
}

// predictLead is how many events of each thread the text shows before its
// cycle event: the whole witness run is --witness-out's and the JSON's.
const predictLead = 5

// renderPredict is render with the witness run abridged in the text.
func renderPredict(w io.Writer, f *predictFlags, r *report.Report) error {
	if f.format == "json" {
		return render(w, &f.decideFlags, r)
	}
	return report.WriteText(w, r, report.TextOptions{Quiet: f.quiet, Lead: predictLead})
}
