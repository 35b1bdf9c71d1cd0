package main

import (
	"flag"

	"github.com/conc-dev/conc/profiles"
)

func init() {
	register(&command{
		name:    "profiles",
		args:    "FILE.conc [flags]",
		summary: "the profiles of each thread (the paper's Def. 4)",
		help:    programHelp,
		run:     runProfiles,
	})
}

// runProfiles is conc profiles: compile a .conc file and print each thread's
// profiles (Definition 4), one group per automaton (thread W[n] shares one).
// It decides nothing; it shows what the profile engine combines.
func runProfiles(e *env, args []string) int {
	var format *string
	files, code, done := parseCommand(e, "profiles", func(set *flag.FlagSet) {
		format = set.String("format", "text", "output `format`: text or json")
	}, args)
	if done {
		return code
	}
	if len(files) != 1 {
		return e.errorf("profiles: want one FILE.conc argument, got %d; run 'conc profiles --help'", len(files))
	}
	if *format != "text" && *format != "json" {
		return e.badFlag("format", *format, "want text or json")
	}
	p, big, code := compileInput(e, files[0], 0)
	if big != nil {
		e.errorf("unknown: %v", big)
		return code // exit 3: a limit, not bad input
	}
	if p == nil {
		return code
	}
	if err := profiles.Write(e.stdout, p, *format); err != nil {
		return e.errorf("profiles: %v", err)
	}
	return 0
}
