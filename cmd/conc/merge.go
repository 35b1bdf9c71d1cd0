package main

import (
	"flag"

	"github.com/conc-dev/conc/corpus"
	"github.com/conc-dev/conc/report/merged"
)

func init() {
	register(&command{name: "merge", args: "SUMMARY... [flags]", run: runMerge,
		summary: "one report from the summaries of runs over traces (--summary-out)",
		help:    "SUMMARY is a file conc monitor or conc predict --all wrote with --summary-out."})
}

// runMerge is conc merge: the summaries merged (corpus.MergeFiles), the
// report the whole corpus would give.
func runMerge(e *env, args []string) int {
	var format string
	var to merged.TextOptions
	files, code, done := parseCommand(e, "merge", func(fs *flag.FlagSet) {
		fs.StringVar(&format, "format", "text", "output `format`: text or json")
		fs.IntVar(&to.MaxGroups, "max-groups", 20, "list at most `N` groups in the text output (0: all)")
		fs.BoolVar(&to.Quiet, "quiet", false, "leave out the summary line of the text output")
	}, args)
	switch {
	case done:
		return code
	case len(files) == 0:
		return e.usagef("want SUMMARY arguments; run 'conc merge --help'")
	case format != "text" && format != "json":
		return e.badFlag("format", format, "want text or json")
	case to.MaxGroups < 0:
		return e.badFlag("max-groups", to.MaxGroups, "want 0 (all) or more")
	}
	s, err := corpus.MergeFiles(files)
	if err != nil {
		return e.errorf("merge: %v", err)
	}
	return renderMerged(e, merged.Write(e.stdout, s, format, to), s)
}
