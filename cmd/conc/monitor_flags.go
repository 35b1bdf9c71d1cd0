package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
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
	fs.Var(&f.notAtomic, "not-atomic", "treat the blocks whose begin is at `SPEC[,SPEC...]` as not atomic: SPEC is a begin's LOC or line:N (its trace line); @FILE reads SPECs from FILE")
	cliflag.Timeout(fs, &f.timeout, timeoutHelp)
	memoryVar(fs, &f.maxMemory)
	fs.BoolVar(&f.quiet, "quiet", false, "leave out the summary line of the text output")
	fs.Var(&f.progress, "progress", progressHelp)
}

// setString is a string flag that knows whether it was given (an empty
// --not-atomic "" is an error, not the flag's absence).
type setString struct {
	value string
	set   bool
}

func (s *setString) String() string     { return s.value }
func (s *setString) Set(v string) error { s.value, s.set = v, true; return nil }

// notAtomicSpec reads --not-atomic (nil without the flag): SPECs
// separated by commas, each a begin's LOC or line:N; a value @FILE reads
// them from FILE, one or more a line ('#' starts a comment).
func notAtomicSpec(flag setString) (*tracereport.NotAtomic, error) {
	if !flag.set {
		return nil, nil
	}
	value := flag.value
	if name, ok := strings.CutPrefix(value, "@"); ok {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var specs []string
		for _, line := range strings.Split(string(data), "\n") {
			line, _, _ = strings.Cut(line, "#")
			specs = append(specs, line)
		}
		value = strings.Join(specs, ",")
	}
	n := &tracereport.NotAtomic{Lines: map[int64]bool{}, Locs: map[string]bool{}}
	for _, spec := range strings.Split(value, ",") {
		spec = strings.TrimSpace(spec)
		if num, ok := strings.CutPrefix(spec, "line:"); ok {
			line, err := strconv.ParseInt(num, 10, 64)
			if err != nil || line < 1 {
				return nil, fmt.Errorf("want line:N with N a trace line (1 or more)%s", naming(spec, flag.value))
			}
			n.Lines[line] = true
		} else if spec != "" {
			n.Locs[spec] = true
		}
	}
	if len(n.Lines)+len(n.Locs) == 0 {
		return nil, fmt.Errorf("no SPEC: want LOC or line:N, separated by commas")
	}
	return n, nil
}

// naming names the bad spec when the value holds more than it.
func naming(spec, value string) string {
	if spec == value {
		return ""
	}
	return fmt.Sprintf(", not %q", spec)
}
