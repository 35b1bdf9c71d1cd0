package main

import (
	"fmt"
	"io"
	"os"

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
	p, code := compileInput(e, files[0])
	if p == nil {
		return code
	}
	return decide(e, &f, p, inputFiles(e, files[0]))
}

// compileInput reads and compiles a .conc file ("-" is standard input); on
// an error it has reported it and returns the exit code with a nil program.
func compileInput(e *env, path string) (*model.Program, int) {
	name, src, err := readInput(e, path)
	if err != nil {
		return nil, e.errorf("%v", err)
	}
	p, err := lang.Compile(name, src)
	if err != nil {
		// lang's ErrorList: one "file:line:col: reason" a line.
		fmt.Fprintln(e.stderr, err)
		return nil, exitUsage
	}
	return p, 0
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
