package main

import (
	"context"
	"flag"
	"runtime"

	"github.com/conc-dev/conc/corpus"
	"github.com/conc-dev/conc/report/merged"
)

// Several traces (docs/corpus.md): conc monitor and conc predict --all
// over files and directories, checked by package corpus, one report
// rendered by report/merged.

// corpusFlags are -j and --summary-out, which monitor and predict take.
type corpusFlags struct {
	jobs       int
	summaryOut string
}

func (c *corpusFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&c.jobs, "j", runtime.NumCPU(), "with several traces, check `N` of them at once")
	fs.StringVar(&c.summaryOut, "summary-out", "", "write the run's summary, which conc merge reads, to `FILE` (and report as for several traces) "+dashHelp)
}

// several reports a run over several traces: more than one, a directory,
// or a summary to write.
func (c *corpusFlags) several(files []string) bool {
	return c.summaryOut != "" || corpus.Several(files)
}

// runCorpus checks the traces files name with o and prints one report.
func runCorpus(e *env, c *corpusFlags, files []string, o corpus.Options, format string, to merged.TextOptions) int {
	if c.jobs < 1 {
		return e.badFlag("j", c.jobs, "want 1 or more")
	}
	defer withMemoryLimit(o.MaxMemory)()
	s, err := corpus.RunFiles(context.Background(), files, c.jobs, o, c.summaryOut, e.stdout)
	if err != nil {
		return e.usagef("%v", err)
	}
	return renderMerged(e, merged.Write(reportWriter(e, c.summaryOut), s, format, to), s)
}

// renderMerged is the exit code of a report of s written with error err:
// its worst verdict's (corpus.Verdicts; a trace not checked is exit 2).
func renderMerged(e *env, err error, s *corpus.Summary) int {
	if err != nil {
		return e.errorf("%v", err)
	}
	return map[string]int{"serializable": exitSerializable, "violation": exitViolation, "unknown": exitUnknown,
		"error": exitUsage}[s.Verdict()]
}

// runMonitorCorpus is conc monitor over several traces.
func runMonitorCorpus(e *env, f *monitorFlags, files []string) int {
	if f.dot != "" || f.html != "" || f.all {
		return e.usagef("--dot, --html and --all show one trace: give them with one trace and no --summary-out; run 'conc monitor --help'")
	}
	if f.criterion != "conflict" {
		return e.usagef("--criterion %s reads one trace; several traces are checked for conflict serializability; run 'conc monitor --help'", f.criterion)
	}
	na, err := notAtomicSpec(f.notAtomic)
	if err != nil {
		return e.badFlag("not-atomic", f.notAtomic.value, err.Error())
	}
	return runCorpus(e, &f.corpus, files, corpus.Options{LockEdges: f.lockEdges, Lenient: f.lenient, First: f.first,
		Cycles: f.cycles, MaxCycle: f.maxCycle, NotAtomic: na, Timeout: f.timeout, MaxMemory: f.maxMemory},
		f.format, merged.TextOptions{MaxGroups: f.maxGroups, Quiet: f.quiet})
}

// runPredictCorpus is conc predict --all over several traces.
func runPredictCorpus(e *env, f *predictFlags, files []string) int {
	if !f.all || f.dot != "" || f.html != "" || f.witnessOut != "" {
		return e.usagef("several traces (or --summary-out) are reported with --all, without --dot, --html or --witness-out; run 'conc predict --help'")
	}
	return runCorpus(e, &f.corpus, files, corpus.Options{Predict: true, LockEdges: f.lockEdges, Lenient: f.lenient,
		Engine: f.engine, IgnoreSync: f.ignoreSync, MaxStates: f.maxStates, MaxStatesSet: f.maxStatesSet, MaxDepth: f.maxDepth,
		MaxStack: f.maxStack, Timeout: f.timeout, MaxMemory: f.maxMemory}, f.format, merged.TextOptions{MaxGroups: f.maxGroups, Quiet: f.quiet})
}
