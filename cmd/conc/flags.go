package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/engines/global"
	"github.com/conc-dev/conc/internal/cliflag"
)

// decideFlags are the flags of the commands that decide a program (check,
// predict): docs/spec.md §4's common flags.
type decideFlags struct {
	format     string
	engine     string
	lockEdges  bool
	ignoreSync bool
	dot        string
	html       string
	timeout    time.Duration
	maxStates  int
	// maxStatesSet: --max-states was given (predict's default budget
	// applies only when it was not; an explicit 0 is no limit).
	maxStatesSet bool
	maxDepth     int
	maxStack     int
	maxMemory    int64 // bytes; 0: budget.Default()
	quiet        bool
	// within is the context the run's limits start from: conc serve's
	// request, so that a client that goes away ends its check (nil: none).
	within context.Context
}

func (f *decideFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.format, "format", "text", "output `format`: text or json")
	fs.StringVar(&f.engine, "engine", "auto", "`engine`: auto, profile, global or brute (auto: profile without locks, fork and join, else global)")
	fs.BoolVar(&f.lockEdges, "lock-edges", false, "release→acquire and fork/join also conflict (as in Velodrome and AeroDrome)")
	fs.BoolVar(&f.ignoreSync, "ignore-sync", false, "drop lock, fork and join events first: faster but optimistic")
	fs.StringVar(&f.dot, "dot", "", "write the witness's conflict cycle as a Graphviz digraph to `FILE` "+dashHelp)
	fs.StringVar(&f.html, "html", "", htmlHelp)
	cliflag.Timeout(fs, &f.timeout, decideTimeoutHelp)
	cliflag.Count(fs, "max-states", "give up after `N` states with verdict unknown (default 0: no limit)",
		&f.maxStates, &f.maxStatesSet)
	cliflag.Count(fs, "max-depth", fmt.Sprintf("brute: explore at most `N` events per thread (default %d)", brute.MaxDepth),
		&f.maxDepth, nil)
	cliflag.Count(fs, "max-stack", maxStackHelp(), &f.maxStack, nil)
	memoryVar(fs, &f.maxMemory)
	fs.BoolVar(&f.quiet, "quiet", false, "leave out the summary line of the text output")
}

// Help texts shared by several commands.
const (
	timeoutHelp = "give up after `DURATION` (e.g. 30s, 5m) with verdict unknown (default: no timeout)"
	dashHelp    = "(-: standard output, and the report goes to standard error)"
)

var decideTimeoutHelp = fmt.Sprintf("give up after `DURATION` (e.g. 30s, 2h) with verdict unknown (default %v)", check.DefaultTimeout)

// deadline is the time budget of a search: --timeout, or
// check.DefaultTimeout.
type deadline = check.Deadline

func (f *decideFlags) deadline() deadline { return check.DeadlineOf(f.timeout, f.within) }

// request is the question f asks of package check.
func (f *decideFlags) request() check.Request {
	return check.Request{Engine: f.engine, Options: f.options(), Timeout: f.timeout, Within: f.within}
}

// maxStackHelp states --max-stack's real default: each engine with a
// bounded stack search has its own constant.
func maxStackHelp() string {
	def := fmt.Sprint(brute.MaxStack)
	if global.MaxStack != brute.MaxStack {
		def = fmt.Sprintf("brute %d, global %d", brute.MaxStack, global.MaxStack)
	}
	return "brute, global: call depth `N` of the bounded search on recursive threads (default " + def + ")"
}

// check rejects values no run could use (the counts and --timeout are
// checked as they are parsed).
func (f *decideFlags) check() error {
	switch {
	case f.format != "text" && f.format != "json":
		return fmt.Errorf("--format %q: want text or json", f.format)
	case f.engine != "auto" && !check.Registered(f.engine):
		return check.UnknownEngine(f.engine)
	}
	return nil
}

func (f *decideFlags) options() engines.Options {
	return engines.Options{
		LockEdges:  f.lockEdges,
		IgnoreSync: f.ignoreSync,
		MaxStates:  f.maxStates,
		MaxDepth:   f.maxDepth,
		MaxStack:   f.maxStack,
		MaxMemory:  f.maxMemory,
	}
}

// parseFlags parses args in conc's flag dialect (cliflag.Parse). For
// --help it prints the command's usage to stdout and returns flag.ErrHelp;
// other errors are returned for the caller to report.
func parseFlags(e *env, c *command, fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := cliflag.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		commandUsage(e.stdout, c, fs)
	}
	return pos, err
}

func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: conc %s %s\n\n%s\n\n", c.name, c.args, c.summary)
	if c.help != "" {
		fmt.Fprintf(&b, "%s\n\n", c.help)
	}
	b.WriteString("Flags:\n")
	b.WriteString(cliflag.Defaults(fs))
	if c.more != nil {
		b.WriteString("\n" + c.more())
	}
	io.WriteString(w, b.String())
}

// parseCommand parses a subcommand's arguments with the flags register adds,
// plus --help and --version, which every command has and answers here. When
// done is true the command has answered and should return code.
func parseCommand(e *env, name string, register func(*flag.FlagSet), args []string) (pos []string, code int, done bool) {
	c := commands[name]
	set := flag.NewFlagSet(name, flag.ContinueOnError)
	register(set)
	version := set.Bool("version", false, "print the version and exit")
	if e.flagsOnly {
		e.flags = set
		return nil, 0, true
	}
	pos, err := parseFlags(e, c, set, args)
	switch {
	case err != nil:
		return nil, flagError(e, c, set, err), true
	case *version:
		fmt.Fprintln(e.stdout, versionLine())
		return nil, 0, true
	}
	return pos, 0, false
}

// parseNoArgs is parseCommand for a command that takes flags only (bench,
// serve): a positional argument is a usage error.
func parseNoArgs(e *env, name string, register func(*flag.FlagSet), args []string) (code int, done bool) {
	pos, code, done := parseCommand(e, name, register, args)
	if !done && len(pos) > 0 {
		return e.errorf("%s: unexpected argument %q; run 'conc %s --help'", name, pos[0], name), true
	}
	return code, done
}

// flagError reports a flag parse error: 0 for --help (already printed),
// else exit 2 with a pointer to the command's help.
func flagError(e *env, c *command, fs *flag.FlagSet, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return e.errorf("%s: %s; run 'conc %s --help'", c.name, cliflag.Message(fs, err), c.name)
}
