package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/conc-dev/conc/record"
)

func init() {
	register(&command{
		name:    "record",
		args:    "PACKAGES... [flags]",
		summary: "record a Go package's tests as STD traces (docs/record.md)",
		help: "PACKAGES are Go packages of the main module (./..., ./bank); their source is\n" +
			"instrumented (the files are not changed) and their tests run with go test;\n" +
			"each test binary writes one gzip'd STD trace. Flags after -- go to go test\n" +
			"(conc record ./... -- -run TestX). The exit status is the tests' own (go\n" +
			"test's: 1 when a test fails), 2 for packages that do not load.",
		run: runRecord,
	})
}

// atomicList is --atomic, given once per pattern.
type atomicList []string

func (a *atomicList) String() string     { return strings.Join(*a, ",") }
func (a *atomicList) Set(s string) error { *a = append(*a, s); return nil }

// runRecord is conc record: one line per trace, the tests' exit status.
func runRecord(e *env, args []string) int {
	var out string
	var atomic atomicList
	var rapid bool
	own, goFlags := splitDashes(args)
	pos, code, done := parseCommand(e, "record", func(fs *flag.FlagSet) {
		fs.StringVar(&out, "o", "conc-traces", "write the traces into `DIR`")
		fs.Var(&atomic, "atomic", "also record the functions that `PATTERN` names as transactions ('(*Account).Transfer', 'bank.*'); repeatable")
		fs.BoolVar(&rapid, "rapid", false, "write plain STD (RAPID's): read locks as acq/rel, no post/wait or give/take")
	}, own)
	if done {
		return code
	}
	if len(pos) == 0 {
		return e.usagef("want PACKAGES; run 'conc record --help'")
	}
	results, status, err := record.Run(record.Options{Dir: ".", Out: out, Atomic: atomic, Rapid: rapid,
		Patterns: pos, GoFlags: goFlags, Stdout: e.stdout, Stderr: e.stderr})
	var bad *record.InputError
	if errors.As(err, &bad) {
		return e.errorf("record: %v", bad.Msg)
	}
	if err != nil {
		return e.errorf("record: %v", err)
	}
	for _, r := range results {
		fmt.Fprintln(e.stdout, record.Summary(r))
	}
	return status
}

// splitDashes splits the arguments at the first "--": conc record's own,
// and go test's.
func splitDashes(args []string) ([]string, []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}
