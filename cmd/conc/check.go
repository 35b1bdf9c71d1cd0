package main

import (
	"fmt"
	"io"
	"os"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/model"
)

func init() {
	register(&command{
		name:    "check",
		args:    "FILE.conc [flags]",
		summary: "is any run of the program non-serializable?",
		help:    programHelp,
		run:     runCheck,
	})
}

// runCheck is conc check: compile one .conc file ("-" is standard input) and
// decide whether any of its runs violates atomicity.
func runCheck(e *env, args []string) int {
	var f decideFlags
	files, code, done := parseCommand(e, "check", f.register, args)
	if done {
		return code
	}
	if len(files) != 1 {
		return e.errorf("check: want one FILE.conc argument, got %d; run 'conc check --help'", len(files))
	}
	if err := f.check(); err != nil {
		return e.usagef("%v; run 'conc check --help'", err)
	}
	defer withMemoryLimit(f.maxMemory)() // compiling is part of the run
	dl, stop := f.startLimits()
	defer stop()
	p, unknown, code := compileInput(e, files[0], f.compileLimits(), dl, f.format == "json")
	if unknown != nil {
		return refused(e, &f, *unknown)
	}
	if p == nil {
		return code
	}
	return decide(e, &f, p, inputFiles(e, files[0]))
}

// compileInput reads and compiles a .conc file ("-" is standard input)
// under the run's limits (dl names its deadline); on an error it has
// reported it and returns the exit code with a nil program. A program the
// limits refused or stopped comes back as its unknown answer,
// unreported: it is an answer, not an error. With asJSON the error is
// also written to standard output as JSON.
func compileInput(e *env, path string, lim lang.Limits, dl deadline, asJSON bool) (p *model.Program, unknown *engines.Result, code int) {
	name, src, err := readInput(e, path)
	if err == nil {
		err = lang.NotText(name, src)
	}
	if err != nil {
		if asJSON {
			writeJSONErrors(e, err)
		}
		return nil, nil, e.errorf("%v", err)
	}
	p, unknown, err = check.Compile(name, src, lim, dl)
	if unknown != nil {
		return nil, unknown, exitUnknown
	}
	if err != nil {
		if asJSON {
			writeJSONErrors(e, err)
		}
		// lang's ErrorList: one "file:line:col: reason" a line.
		fmt.Fprintln(e.stderr, err)
		return nil, nil, exitUsage
	}
	return p, nil, 0
}

// readInput reads a named file, or standard input for "-" (named <stdin>).
func readInput(e *env, path string) (name string, src []byte, err error) {
	if path == "-" {
		src, err = io.ReadAll(e.stdin)
		return "<stdin>", src, err
	}
	src, err = os.ReadFile(path)
	return path, src, cannotRead(err)
}
