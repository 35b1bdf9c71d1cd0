package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/conc-dev/conc/internal/cliflag"
)

// Exit codes (docs/spec.md §6).
const (
	exitSerializable = 0
	exitViolation    = 1
	exitUsage        = 2 // bad input or usage; the message says where and why
	exitUnknown      = 3
)

// env is what a subcommand may touch: no globals, so tests call run directly.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	cmd            string // the subcommand running, for usagef
	// flagsOnly: parseCommand only records the command's flags in flags
	// and ends the command (completion reads them so).
	flagsOnly bool
	flags     *flag.FlagSet
}

// errorf prints a "conc: ..." message and returns exitUsage.
func (e *env) errorf(format string, args ...any) int {
	fmt.Fprintf(e.stderr, "conc: "+format+"\n", args...)
	return exitUsage
}

// usagef prints a usage error of the running command, "conc: CMD: ..."
// (docs/spec.md §4), and returns exitUsage.
func (e *env) usagef(format string, args ...any) int {
	return e.errorf("%s: "+format, append([]any{e.cmd}, args...)...)
}

// badFlag reports a bad flag value found after parsing in the form of
// package flag's (flagError): "conc: CMD: --FLAG "VALUE": why; run 'conc
// CMD --help'".
func (e *env) badFlag(name string, value any, why string) int {
	return e.usagef("--%s %q: %s; run 'conc %s --help'", name, fmt.Sprint(value), why, e.cmd)
}

// command is one subcommand. Each lives in its own file and registers itself
// in init, so a new one drops in without touching the others.
type command struct {
	name    string
	args    string // the synopsis after the name, e.g. "FILE.conc [flags]"
	summary string
	help    string // what the arguments are, for the command's --help
	run     func(e *env, args []string) int
	// more, if set, is printed by --help after the flags (gen's families).
	more func() string
}

// The help paragraphs of the commands' arguments.
const (
	programHelp = "FILE.conc is a program in the .conc language; - reads it from standard input."
	traceHelp   = "TRACE is a trace in RAPID's STD format; - reads it from standard input;\n" +
		"gzip input (a .gz name or gzip data) is inflated. Several TRACEs, or directories\n" +
		"of them, are reported as one (monitor, predict --all; docs/corpus.md)."
)

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// order is docs/spec.md §4's subcommands in the order usage lists them;
// the others follow by name.
var order = []string{"check", "predict", "monitor", "merge", "record", "profiles", "gen", "bench", "serve"}

// run is the whole command line: it returns the exit code. A panic is a bug;
// it is reported in one line as an internal error rather than a stack trace.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			code = e.errorf("internal error (please report): %v", r)
		}
	}()
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch name := args[0]; name {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && name == "help" {
			return dispatch(e, args[1], []string{"--help"})
		}
		usage(e.stdout)
		return 0
	case "-v", "-version", "--version", "version":
		fmt.Fprintln(e.stdout, versionLine())
		return 0
	default:
		return dispatch(e, name, args[1:])
	}
}

func dispatch(e *env, name string, args []string) int {
	if c, ok := commands[name]; ok {
		e.cmd = name
		return c.run(e, args)
	}
	return e.errorf("unknown command %q%s; run 'conc --help'", name, cliflag.DidYouMean(name, commandNames(), ""))
}

// usage lists the subcommands: docs/spec.md §4's in its order, then any others.
func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("conc decides whether a concurrent program can violate atomicity.\n\nUsage:\n")
	seen := map[string]bool{}
	line := func(c command) {
		syn := strings.TrimSpace(c.name + " " + c.args)
		fmt.Fprintf(&b, "  conc %-26s %s\n", syn, c.summary)
		seen[c.name] = true
	}
	for _, name := range order {
		if c, ok := commands[name]; ok {
			line(*c)
		}
	}
	var rest []string
	for n := range commands {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	for _, n := range rest {
		line(*commands[n])
	}
	b.WriteString("\nRun 'conc COMMAND --help' for a command's flags.\n")
	b.WriteString("Exit codes: 0 serializable, 1 violation, 2 bad input or usage, 3 unknown.\n")
	io.WriteString(w, b.String())
}

// versionLine is --version: the module version, the VCS commit, and the Go
// toolchain, from the build info Go embeds.
func versionLine() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi, runtime.Version())
}

// versionOf spells bi: "conc VERSION (commit REV[, modified]; GO)". The
// version is the module's (a tag, or Go's pseudo-version of the commit),
// else "devel"; without VCS information (go run, -buildvcs=false, a build
// outside a clone) the commit is "unknown".
func versionOf(bi *debug.BuildInfo, goVersion string) string {
	v, rev, modified := "devel", "unknown", false
	if bi != nil {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if modified {
		rev += ", modified"
	}
	return fmt.Sprintf("conc %s (commit %s; %s)", v, rev, goVersion)
}
