package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/outfile"
)

// Request is a sweep as conc bench's flags state it, before it is checked
// (Spec), and how its answer is shown (Report).
type Request struct {
	Family   string
	Engines  string // comma-separated
	Sizes    string // comma-separated; empty: the family's
	Threads  string // comma-separated; empty: the family's
	Timeout  time.Duration
	Repeat   int
	Seed     uint64
	MaxDepth int
	Plot     string // the plot's file, .svg or .png; empty: none
	Metric   string // the plot's y axis: states or time
	Title    string // the plot's title; empty: DefaultTitle
	Markdown bool
}

// hint ends the messages of a bad flag value (docs/spec.md §4).
const hint = "; run 'conc bench --help'"

// Spec checks the request and turns it into a sweep, with the plot's
// format (empty without a plot).
func (r Request) Spec() (Spec, string, error) {
	axis, _, err := LookupAxis(r.Family)
	if err != nil {
		return Spec{}, "", err
	}
	s := Spec{Family: r.Family, Timeout: r.Timeout, Repeat: r.Repeat, Seed: r.Seed,
		Options: engines.Options{MaxDepth: r.MaxDepth}}
	if s.Engines, err = engineList(r.Engines, axis.Trace); err != nil {
		return s, "", err
	}
	if s.Sizes, err = ParseCounts("--sizes", r.Sizes, axis.Sizes); err != nil {
		return s, "", err
	}
	if s.Threads, err = ParseCounts("--threads", r.Threads, nil); err != nil {
		return s, "", err
	}
	if err := axis.CheckThreads(r.Family, s.Threads); err != nil {
		return s, "", err
	}
	format, err := r.checkRest(len(s.Engines))
	return s, format, err
}

// engineList reads --engines: registered names, blanks left out.
// (for a trace family, registered trace deciders).
func engineList(list string, traces bool) ([]string, error) {
	var names []string
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name != "" {
			names = append(names, name)
			if traces {
				continue
			}
			if _, err := engines.Lookup(name); err != nil {
				return nil, fmt.Errorf("--engines: %v", err)
			}
		}
	}
	if traces {
		return names, deciderList(names)
	}
	return names, nil
}

// checkRest checks the flags Spec does not read into the sweep, and
// returns the plot's format.
func (r Request) checkRest(nEngines int) (string, error) {
	switch {
	case nEngines == 0:
		return "", fmt.Errorf("--engines: want at least one engine")
	case r.Repeat < 1:
		return "", fmt.Errorf("--repeat \"%d\": want 1 or more%s", r.Repeat, hint)
	case r.MaxDepth < 0:
		return "", fmt.Errorf("--max-depth \"%d\": want 0 (the default) or more%s", r.MaxDepth, hint)
	case r.Metric != "time" && r.Metric != "states":
		return "", fmt.Errorf("--metric %q: want states or time%s", r.Metric, hint)
	case r.Plot != "":
		return PlotFormat(r.Plot)
	}
	return "", nil
}

// ParseCounts parses a comma-separated list of positive counts; empty
// gives def.
func ParseCounts(flagName, s string, def []int) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	var out []int
	for _, w := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || v < 1 || v > 1_000_000 {
			return nil, fmt.Errorf("%s: %q is not a count from 1 to 1000000", flagName, w)
		}
		out = append(out, v)
	}
	return out, nil
}

// Report prints the sweep's points (a table or, with Markdown, the
// Markdown that docs/complexity.md holds, made by command on machine) and
// the fitted growth, and draws the plot. With Markdown the fits and the
// plot are made from the points as the table prints them, so that a test
// can make them again from the document.
func (r Request) Report(w io.Writer, spec Spec, format string, points []Point, command, machine string) error {
	axis, _, _ := LookupAxis(spec.Family)
	if r.Markdown {
		points = AsPrinted(points)
		WriteMarkdown(w, command, machine, points)
	} else {
		fmt.Fprintf(w, "family %s: n = %s, k = %s\n\n", spec.Family, axis.N, axis.K)
		WriteTable(w, points)
		if gs := Fits(points); len(gs) > 0 {
			fmt.Fprintln(w, "\nfitted growth (least squares on log-log axes):")
			WriteFits(w, gs)
		}
	}
	if r.Plot == "" {
		return nil
	}
	if err := r.writePlot(format, spec, axis, points); err != nil {
		return err
	}
	if !r.Markdown {
		fmt.Fprintf(w, "\nwrote %s\n", r.Plot)
	}
	return nil
}

func (r Request) writePlot(format string, spec Spec, axis Axis, points []Point) error {
	title := r.Title
	if title == "" {
		title = DefaultTitle(spec.Family, spec.Engines)
	}
	// Plot names a .svg or .png file, never "-" (Spec checked it).
	out, err := outfile.Create(r.Plot, io.Discard)
	if err != nil {
		return err
	}
	defer out.Discard()
	o := PlotOptions{Title: title, Metric: r.Metric, XLabel: "n = " + axis.N}
	if err := WritePlot(out, format, points, o); err != nil {
		return err
	}
	return out.Commit()
}

// ShellWords joins args as a shell would read them back, for the command
// line a Markdown report names: an argument with a character outside a
// safe set is single-quoted.
func ShellWords(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if a == "" || strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_,./=:+-") != "" {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// FamilyHelp lists the families a sweep accepts, with what the size n and
// the thread count k of each are, for conc bench --help.
func FamilyHelp() string {
	var b strings.Builder
	b.WriteString("Families (--family):\n")
	for _, name := range AxisNames() {
		a, _, _ := LookupAxis(name)
		k := fmt.Sprintf("k = %s (%d or more, default %d)", a.K, a.MinK, a.DefaultK)
		if a.MinK == 0 {
			k = "k = " + a.K
		}
		fmt.Fprintf(&b, "  %-12s n = %s; %s\n", name, a.N, k)
	}
	return b.String()
}
