package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
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
	scripts := map[string]func(io.Writer, []cmdFlags){"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}
	if len(pos) != 1 || scripts[pos[0]] == nil {
		return e.usagef("want one shell: bash, zsh or fish; run 'conc completion --help'")
	}
	scripts[pos[0]](e.stdout, completable())
	return 0
}

// cmdFlags is a command, its summary and its flags' names and usages.
type cmdFlags struct {
	name, summary string
	flags         []*flag.Flag
}

// completable lists the commands in name order with the flags each
// defines, read by running it with flagsOnly.
func completable() []cmdFlags {
	var out []cmdFlags
	for _, name := range commandNames() {
		c := commands[name]
		if c == nil {
			continue // help, version
		}
		e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, cmd: name, flagsOnly: true}
		c.run(e, nil)
		cf := cmdFlags{name: name, summary: c.summary}
		if e.flags != nil {
			e.flags.VisitAll(func(f *flag.Flag) { cf.flags = append(cf.flags, f) })
		}
		out = append(out, cf)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// names is the commands' names, space-separated.
func names(cs []cmdFlags) string {
	var ns []string
	for _, c := range cs {
		ns = append(ns, c.name)
	}
	return strings.Join(append(ns, "help", "version"), " ")
}

// dashed is c's flags as "--name", space-separated.
func (c cmdFlags) dashed() string {
	var fs []string
	for _, f := range c.flags {
		fs = append(fs, "--"+f.Name)
	}
	return strings.Join(append(fs, "--help"), " ")
}

func bashCompletion(w io.Writer, cs []cmdFlags) {
	fmt.Fprintf(w, "# bash completion for conc: source <(conc completion bash)\n_conc() {\n"+
		"  local cur=${COMP_WORDS[COMP_CWORD]} flags=\n"+
		"  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"+
		"    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n"+
		"  case ${COMP_WORDS[1]} in\n", names(cs))
	for _, c := range cs {
		fmt.Fprintf(w, "    %s) flags=%q ;;\n", c.name, c.dashed())
	}
	fmt.Fprint(w, "  esac\n  if [[ $cur == -* ]]; then\n"+
		"    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n  fi\n}\n"+
		"complete -o default -F _conc conc\n")
}

func zshCompletion(w io.Writer, cs []cmdFlags) {
	fmt.Fprint(w, "#compdef conc\n# zsh completion for conc: conc completion zsh > \"${fpath[1]}/_conc\"\n_conc() {\n"+
		"  if (( CURRENT == 2 )); then\n    local -a cmds\n    cmds=(\n")
	for _, c := range cs {
		fmt.Fprintf(w, "      %s\n", shQuote(c.name+":"+c.summary))
	}
	fmt.Fprint(w, "      'help:a command'\"'\"'s flags' 'version:print the version'\n    )\n"+
		"    _describe command cmds\n    return\n  fi\n  local -a flags\n  case $words[2] in\n")
	for _, c := range cs {
		fmt.Fprintf(w, "    %s) flags=(%s) ;;\n", c.name, c.dashed())
	}
	fmt.Fprint(w, "  esac\n  if [[ $PREFIX == -* ]]; then\n    compadd -- $flags\n  else\n    _files\n  fi\n}\n"+
		"compdef _conc conc\n")
}

func fishCompletion(w io.Writer, cs []cmdFlags) {
	fmt.Fprint(w, "# fish completion for conc: conc completion fish > ~/.config/fish/completions/conc.fish\n")
	for _, c := range cs {
		fmt.Fprintf(w, "complete -c conc -f -n __fish_use_subcommand -a %s -d %s\n", c.name, shQuote(c.summary))
	}
	fmt.Fprint(w, "complete -c conc -f -n __fish_use_subcommand -a help -d 'a command'\\''s flags'\n"+
		"complete -c conc -f -n __fish_use_subcommand -a version -d 'print the version'\n")
	for _, c := range cs {
		for _, f := range append(c.flags, &flag.Flag{Name: "help", Usage: "the command's help"}) {
			_, usage := flag.UnquoteUsage(f)
			usage, _, _ = strings.Cut(usage, "\n")
			fmt.Fprintf(w, "complete -c conc -n '__fish_seen_subcommand_from %s' -l %s -d %s\n", c.name, f.Name, shQuote(usage))
		}
	}
}

// shQuote quotes s for sh, zsh and fish in single quotes.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
