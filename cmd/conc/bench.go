package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/conc-dev/conc/bench"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/internal/outfile"
)

func init() {
	register(&command{
		name:    "bench",
		args:    "[flags]",
		summary: "measure how the engines scale; table and plot",
		run:     runBench,
		more:    benchFamilies,
	})
}

// benchFlags are conc bench's flags.
type benchFlags struct {
	family  string
	engines string
	sizes   string
	threads string
	timeout time.Duration
	repeat  int
	seed    uint64
	plot    string
	metric  string
	title   string
	maxDep  int
	md      bool
}

func (f *benchFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.family, "family", "chain", "the `family` to sweep, one of those listed below")
	fs.StringVar(&f.engines, "engines", "profile,global", "comma-separated `engines` to run (have "+strings.Join(engines.Names(), ", ")+")")
	fs.StringVar(&f.sizes, "sizes", "", "comma-separated sizes `n` (default: the family's)")
	fs.StringVar(&f.threads, "threads", "", "comma-separated thread counts `k` (default: the family's)")
	f.timeout = benchTimeout
	timeoutVar(fs, &f.timeout, fmt.Sprintf("give up one decision after `DURATION` (default %v); larger sizes are then skipped", benchTimeout))
	fs.IntVar(&f.repeat, "repeat", 1, "decide each instance `N` times and keep the fastest")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the families that draw at random")
	fs.StringVar(&f.plot, "plot", "", "write a log-log plot to `FILE` (.svg or .png)")
	fs.StringVar(&f.metric, "metric", "states", "what the plot's y axis shows: states (the engine's counted work, with times drawn dotted beside it) or time")
	fs.StringVar(&f.title, "title", "", "the plot's title (default: the family and engines)")
	fs.BoolVar(&f.md, "markdown", false, "print the table and fits as Markdown, after a line naming the command and the machine (CPU, cores, Go, date), for docs/complexity.md")
	fs.IntVar(&f.maxDep, "max-depth", 0, fmt.Sprintf("brute: explore at most `N` events per thread (default %d)", brute.MaxDepth))
}

// benchTimeout is --timeout's default: bench always bounds a decision, so
// that a sweep ends.
const benchTimeout = 10 * time.Second

// runBench is conc bench: sweep a family over sizes and thread counts,
// decide each instance with each engine, print the table and the fitted
// exponents, and draw the plot.
func runBench(e *env, args []string) int {
	var f benchFlags
	if code, done := parseNoArgs(e, "bench", f.register, args); done {
		return code
	}
	spec, format, err := f.spec()
	if err != nil {
		return e.usagef("%v", err)
	}
	points, err := bench.Run(context.Background(), spec, nil)
	if err != nil {
		return e.errorf("%v", err)
	}
	command := "conc bench " + shellWords(args)
	if err := f.report(e.stdout, spec, format, points, command, bench.Machine(time.Now())); err != nil {
		return e.errorf("bench: --plot %s: %v", f.plot, err)
	}
	return 0
}

// report prints the sweep's points (a table or, with --markdown, the
// Markdown that docs/complexity.md holds, made by command on machine) and
// the fitted growth, and draws the plot. With --markdown the fits and the
// plot are made from the points as the table prints them, so that a test
// can make them again from the document.
func (f *benchFlags) report(w io.Writer, spec bench.Spec, format string, points []bench.Point, command, machine string) error {
	axis, _, _ := bench.LookupAxis(spec.Family)
	if f.md {
		points = bench.AsPrinted(points)
		bench.WriteMarkdown(w, command, machine, points)
	} else {
		fmt.Fprintf(w, "family %s: n = %s, k = %s\n\n", spec.Family, axis.N, axis.K)
		bench.WriteTable(w, points)
		if gs := bench.Fits(points); len(gs) > 0 {
			fmt.Fprintln(w, "\nfitted growth (least squares on log-log axes):")
			bench.WriteFits(w, gs)
		}
	}
	if f.plot == "" {
		return nil
	}
	if err := f.writePlot(format, spec, axis, points); err != nil {
		return err
	}
	if !f.md {
		fmt.Fprintf(w, "\nwrote %s\n", f.plot)
	}
	return nil
}

// shellWords joins args as a shell would read them back: an argument with
// a character outside a safe set is single-quoted.
func shellWords(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if a == "" || strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_,./=:+-") != "" {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// spec checks the flags and turns them into a sweep.
func (f *benchFlags) spec() (bench.Spec, string, error) {
	axis, _, err := bench.LookupAxis(f.family)
	if err != nil {
		return bench.Spec{}, "", err
	}
	s := bench.Spec{Family: f.family, Timeout: f.timeout, Repeat: f.repeat, Seed: f.seed,
		Options: engines.Options{MaxDepth: f.maxDep}}
	for _, name := range strings.Split(f.engines, ",") {
		if name = strings.TrimSpace(name); name != "" {
			if _, err := engines.Lookup(name); err != nil {
				return s, "", fmt.Errorf("--engines: %v", err)
			}
			s.Engines = append(s.Engines, name)
		}
	}
	if s.Sizes, err = intList("--sizes", f.sizes, axis.Sizes); err != nil {
		return s, "", err
	}
	if s.Threads, err = intList("--threads", f.threads, nil); err != nil {
		return s, "", err
	}
	if err := axis.CheckThreads(f.family, s.Threads); err != nil {
		return s, "", err
	}
	format := ""
	switch {
	case len(s.Engines) == 0:
		return s, "", fmt.Errorf("--engines: want at least one engine")
	case f.repeat < 1:
		return s, "", fmt.Errorf("--repeat \"%d\": want 1 or more%s", f.repeat, benchHint)
	case f.maxDep < 0:
		return s, "", fmt.Errorf("--max-depth \"%d\": want 0 (the default) or more%s", f.maxDep, benchHint)
	case f.metric != "time" && f.metric != "states":
		return s, "", fmt.Errorf("--metric %q: want states or time%s", f.metric, benchHint)
	case f.plot != "":
		if format, err = bench.PlotFormat(f.plot); err != nil {
			return s, "", err
		}
	}
	return s, format, nil
}

// benchHint ends the messages of a bad flag value (docs/spec.md §4).
const benchHint = "; run 'conc bench --help'"

// intList parses a comma-separated list of positive counts; empty gives def.
func intList(flagName, s string, def []int) ([]int, error) {
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

func (f *benchFlags) writePlot(format string, spec bench.Spec, axis bench.Axis, points []bench.Point) error {
	title := f.title
	if title == "" {
		title = bench.DefaultTitle(spec.Family, spec.Engines)
	}
	// --plot names a .svg or .png file, never "-" (spec checked it).
	out, err := outfile.Create(f.plot, io.Discard)
	if err != nil {
		return err
	}
	defer out.Discard()
	o := bench.PlotOptions{Title: title, Metric: f.metric, XLabel: "n = " + axis.N}
	if err := bench.WritePlot(out, format, points, o); err != nil {
		return err
	}
	return out.Commit()
}

// benchFamilies lists the families --family accepts, with what the size n
// and the thread count k of each are, for conc bench --help.
func benchFamilies() string {
	var b strings.Builder
	b.WriteString("Families (--family):\n")
	for _, name := range bench.AxisNames() {
		a, _, _ := bench.LookupAxis(name)
		k := fmt.Sprintf("k = %s (%d or more, default %d)", a.K, a.MinK, a.DefaultK)
		if a.MinK == 0 {
			k = "k = " + a.K
		}
		fmt.Fprintf(&b, "  %-12s n = %s; %s\n", name, a.N, k)
	}
	return b.String()
}
