package main

import (
	"flag"
	"time"

	"github.com/conc-dev/conc/internal/cliflag"
	"github.com/conc-dev/conc/internal/progress"
	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/tracereport"
)

// monitorFlags are conc monitor's flags: docs/spec.md §4's that apply to one
// observed trace, plus --lenient (docs/spec.md §3) and --first.
type monitorFlags struct {
	format    string
	lockEdges bool
	lenient   bool
	first     bool
	dot       string
	html      string
	maxCycle  int
	maxGroups int
	all       bool
	timeout   time.Duration
	maxMemory int64 // bytes; 0: budget.Default()
	quiet     bool
	progress  progress.Mode
	cycles    bool
	notAtomic setString
	criterion string
	maxStates int
	statesSet bool
	corpus    corpusFlags // several traces (corpus.go)
}

func (f *monitorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.format, "format", "text", "output `format`: text or json")
	fs.BoolVar(&f.lockEdges, "lock-edges", false, "release→acquire and fork/join also conflict (as in Velodrome, AeroDrome and RAPID)")
	fs.BoolVar(&f.lenient, "lenient", false, lenientHelp)
	fs.BoolVar(&f.first, "first", false, "stop at the first violating event, as RAPID does")
	fs.StringVar(&f.dot, "dot", "", "write the example cycles of the groups (at most --max-groups) as a Graphviz digraph to `FILE` "+dashHelp)
	fs.StringVar(&f.html, "html", "", htmlHelp)
	fs.IntVar(&f.maxCycle, "max-cycle", monitor.DefaultMaxCycle, "list at most `N` transactions of each cycle; the middle of a longer one is elided")
	fs.IntVar(&f.maxGroups, "max-groups", 20, "list at most `N` groups of violating transactions in the text output (0: all)")
	fs.BoolVar(&f.all, "all", false, "also list every broken transaction (with --cycles: every transaction on a cycle) in the text output, one a line")
	fs.BoolVar(&f.cycles, "cycles", false, "report every transaction on a cycle of conflicts, grouped (Velodrome's answer), instead of the transactions broken by themselves")
	fs.StringVar(&f.criterion, "criterion", "conflict", "`conflict` or view: conflict-serializability, or view-serializability (a serial order that reads every value from the same write and ends with the same last writes; docs/traces.md)")
	cliflag.Count(fs, "max-states", "with --criterion view, give up the search after `N` states with verdict unknown (default 0: 1000000)", &f.maxStates, &f.statesSet)
	fs.Var(&f.notAtomic, "not-atomic", "treat the blocks whose begin is at `SPEC[,SPEC...]` as not atomic: SPEC is a begin's LOC or line:N (its trace line); @FILE reads SPECs from FILE")
	cliflag.Timeout(fs, &f.timeout, timeoutHelp)
	memoryVar(fs, &f.maxMemory)
	fs.BoolVar(&f.quiet, "quiet", false, "leave out the summary line of the text output")
	fs.Var(&f.progress, "progress", progressHelp)
	f.corpus.register(fs)
}

// setString is a string flag that knows whether it was given (an empty
// --not-atomic "" is an error, not the flag's absence).
type setString struct {
	value string
	set   bool
}

func (s *setString) String() string     { return s.value }
func (s *setString) Set(v string) error { s.value, s.set = v, true; return nil }

// notAtomicSpec reads --not-atomic (nil without the flag;
// tracereport.ParseNotAtomic).
func notAtomicSpec(flag setString) (*tracereport.NotAtomic, error) {
	if !flag.set {
		return nil, nil
	}
	return tracereport.ParseNotAtomic(flag.value)
}
