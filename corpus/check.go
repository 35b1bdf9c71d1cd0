package corpus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/tracereport"
)

// Options are the flags of the command run over every trace, as plain
// data (the Beam pipeline ships them to its workers).
type Options struct {
	// Predict runs conc predict --all; otherwise conc monitor.
	Predict bool
	// LockEdges and Lenient are both commands' --lock-edges and
	// --lenient.
	LockEdges, Lenient bool
	// First, Cycles, MaxCycle and NotAtomic are conc monitor's --first,
	// --cycles, --max-cycle (0: the default) and --not-atomic (nil: none).
	First, Cycles bool
	MaxCycle      int
	NotAtomic     *tracereport.NotAtomic
	// Engine, IgnoreSync, MaxStates (MaxStatesSet: given), MaxDepth and
	// MaxStack are conc predict's flags of those names.
	Engine                        string
	IgnoreSync, MaxStatesSet      bool
	MaxStates, MaxDepth, MaxStack int
	// Timeout is each trace's --timeout (0: the command's default: none
	// for monitor, DefaultTimeout for predict); MaxMemory the memory
	// budget (0: the default), of the whole process, which the traces
	// checked at once share.
	Timeout   time.Duration
	MaxMemory int64
}

// DefaultTimeout is predict's time budget for a trace without --timeout
// (docs/spec.md §7).
var DefaultTimeout = 5 * time.Minute

// Command is the command the options run, as a summary names it.
func (o *Options) Command() string {
	if o.Predict {
		return "predict --all"
	}
	return "monitor"
}

// Flags are the flags that change the answers, as a summary names them:
// only summaries with the same flags merge. Budgets (--timeout,
// --max-states, --max-memory) are left out: they may differ between the
// machines that check the parts of a corpus.
func (o *Options) Flags() string {
	var f []string
	add := func(on bool, flag string) {
		if on {
			f = append(f, flag)
		}
	}
	add(o.LockEdges, "--lock-edges")
	add(o.Lenient, "--lenient")
	if o.Predict {
		add(o.Engine != "" && o.Engine != "auto", "--engine="+o.Engine)
		add(o.IgnoreSync, "--ignore-sync")
		return strings.Join(f, " ")
	}
	add(o.First, "--first")
	add(o.Cycles, "--cycles")
	add(o.MaxCycle != 0 && o.MaxCycle != monitor.DefaultMaxCycle, fmt.Sprintf("--max-cycle=%d", o.MaxCycle))
	if n := o.NotAtomic; n != nil {
		var specs []string
		for l := range n.Lines {
			specs = append(specs, fmt.Sprintf("line:%d", l))
		}
		for loc := range n.Locs {
			specs = append(specs, loc)
		}
		slices.Sort(specs)
		f = append(f, "--not-atomic="+strings.Join(specs, ","))
	}
	return strings.Join(f, " ")
}

// CheckTrace checks the trace in the file path, called name in the
// summary and in its messages, and returns its summary: one row, and its
// groups, each the example of its signature. It does not fail: a trace
// that cannot be read or checked is a row with the verdict "error" and
// the message the command would have printed.
func CheckTrace(ctx context.Context, name, path string, o Options) *Summary {
	row, groups, err := checkFile(ctx, name, path, o)
	if err != nil {
		row = Trace{Name: name, Verdict: "error", Reason: errorText(err)}
		groups = nil
	}
	return traceSummary(o.Command(), o.Flags(), row, groups)
}

// traceSummary is the summary of one trace, its row and its groups: those
// whose signatures normalise alike merged, each group met in this one
// trace.
func traceSummary(command, flags string, row Trace, groups []Group) *Summary {
	m := NewMerger()
	m.Add(&Summary{Command: command, Flags: flags, Traces: []Trace{row}, Groups: groups}) // one trace: nothing to refuse
	s := m.Summary()
	for i := range s.Groups {
		s.Groups[i].Traces = 1
	}
	return s
}

// checkFile opens the trace and runs the command over it.
func checkFile(ctx context.Context, name, path string, o Options) (Trace, []Group, error) {
	f, err := os.Open(path)
	if err != nil {
		return Trace{}, nil, cannotRead(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return Trace{}, nil, fmt.Errorf("cannot read %s: is a directory", name)
	}
	r, err := trace.NewReader(f, name, trace.Options{Lenient: o.Lenient, Orderings: true})
	if err != nil {
		return Trace{}, nil, err
	}
	defer r.Close()
	if o.Predict {
		return predictTrace(ctx, r, name, o)
	}
	return monitorTrace(ctx, r, name, path, o)
}

// errorText is err as the command prints it: a trace error as
// "FILE:LINE: why", a witness that does not replay as an internal error.
func errorText(err error) string {
	var we *predict.WitnessError
	if errors.As(err, &we) {
		return "internal error (please report): " + we.Error()
	}
	return err.Error()
}

// skipped is what --lenient skipped, for the row (tracereport.Skipped's
// count).
func skipped(row *Trace, lenient bool, st trace.Stats) {
	if !lenient {
		return
	}
	var rep report.Report
	tracereport.Skipped(&rep, st, nil)
	row.Skipped, row.SkippedKinds = rep.Skipped, rep.SkippedKinds
}
