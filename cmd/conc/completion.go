package main

import (
	"flag"
	"io"
	"sort"
	"strings"

	"github.com/conc-dev/conc/internal/completion"
)

func init() {
	register(&command{
		name:    "completion",
		args:    "bash|zsh|fish",
		summary: "print a shell completion script (commands and their flags)",
		help: "Load it in the shell, e.g. bash: source <(conc completion bash);\n" +
			"zsh: conc completion zsh > ~/.zfunc/_conc; fish: conc completion fish > ~/.config/fish/completions/conc.fish.",
		run: runCompletion,
	})
}

// runCompletion prints the completion script of a shell, made from the
// registered commands and their flag sets, so that it lists what conc
// accepts and nothing else.
func runCompletion(e *env, args []string) int {
	pos, code, done := parseCommand(e, "completion", func(*flag.FlagSet) {}, args)
	if done {
		return code
	}
	if len(pos) != 1 || completion.Scripts[pos[0]] == nil {
		return e.usagef("want one shell: bash, zsh or fish; run 'conc completion --help'")
	}
	completion.Scripts[pos[0]](e.stdout, completable())
	return 0
}

// completable lists the commands in name order with the flags each
// defines, read by running it with flagsOnly.
func completable() []completion.Command {
	var out []completion.Command
	for _, name := range commandNames() {
		c := commands[name]
		if c == nil {
			continue // help, version
		}
		e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, cmd: name, flagsOnly: true}
		c.run(e, nil)
		cf := completion.Command{Name: name, Summary: c.summary}
		if e.flags != nil {
			e.flags.VisitAll(func(f *flag.Flag) { cf.Flags = append(cf.Flags, f) })
		}
		out = append(out, cf)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
