package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/conc-dev/conc/bench"
	_ "github.com/conc-dev/conc/bench/traces" // the trace families' deciders: conflict and view
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/internal/cliflag"
)

func init() {
	register(&command{
		name:    "bench",
		args:    "[flags]",
		summary: "measure how the engines scale; table and plot",
		run:     runBench,
		more:    bench.FamilyHelp,
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
	cliflag.Timeout(fs, &f.timeout, fmt.Sprintf("give up one decision after `DURATION` (default %v); larger sizes are then skipped", benchTimeout))
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
	command := "conc bench " + bench.ShellWords(args)
	if err := f.report(e.stdout, spec, format, points, command, bench.Machine(time.Now())); err != nil {
		return e.errorf("bench: --plot %s: %v", f.plot, err)
	}
	return 0
}

// request is the sweep the flags state.
func (f *benchFlags) request() bench.Request {
	return bench.Request{Family: f.family, Engines: f.engines, Sizes: f.sizes, Threads: f.threads,
		Timeout: f.timeout, Repeat: f.repeat, Seed: f.seed, MaxDepth: f.maxDep,
		Plot: f.plot, Metric: f.metric, Title: f.title, Markdown: f.md}
}

// spec checks the flags and turns them into a sweep (bench.Request.Spec).
func (f *benchFlags) spec() (bench.Spec, string, error) { return f.request().Spec() }

// report prints the sweep's answer and draws the plot (bench.Request.Report).
func (f *benchFlags) report(w io.Writer, spec bench.Spec, format string, points []bench.Point, command, machine string) error {
	return f.request().Report(w, spec, format, points, command, machine)
}
