// Package completion writes conc's shell completion scripts (bash, zsh,
// fish) from the commands and their flag sets, so that a script lists
// what conc accepts and nothing else; "help" and "version", which have no
// flags, are added by name.
package completion

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is a command, its summary and its flags.
type Command struct {
	Name, Summary string
	Flags         []*flag.Flag
}

// Scripts are the writers by shell name.
var Scripts = map[string]func(io.Writer, []Command){"bash": Bash, "zsh": Zsh, "fish": Fish}

// names is the commands' names, space-separated.
func names(cs []Command) string {
	var ns []string
	for _, c := range cs {
		ns = append(ns, c.Name)
	}
	return strings.Join(append(ns, "help", "version"), " ")
}

// dashed is c's flags as "--name", space-separated.
func (c Command) dashed() string {
	var fs []string
	for _, f := range c.Flags {
		fs = append(fs, "--"+f.Name)
	}
	return strings.Join(append(fs, "--help"), " ")
}

// Bash writes the bash script.
func Bash(w io.Writer, cs []Command) {
	fmt.Fprintf(w, "# bash completion for conc: source <(conc completion bash)\n_conc() {\n"+
		"  local cur=${COMP_WORDS[COMP_CWORD]} flags=\n"+
		"  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"+
		"    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n"+
		"  case ${COMP_WORDS[1]} in\n", names(cs))
	for _, c := range cs {
		fmt.Fprintf(w, "    %s) flags=%q ;;\n", c.Name, c.dashed())
	}
	fmt.Fprint(w, "  esac\n  if [[ $cur == -* ]]; then\n"+
		"    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n  fi\n}\n"+
		"complete -o default -F _conc conc\n")
}

// Zsh writes the zsh script.
func Zsh(w io.Writer, cs []Command) {
	fmt.Fprint(w, "#compdef conc\n# zsh completion for conc: conc completion zsh > \"${fpath[1]}/_conc\"\n_conc() {\n"+
		"  if (( CURRENT == 2 )); then\n    local -a cmds\n    cmds=(\n")
	for _, c := range cs {
		fmt.Fprintf(w, "      %s\n", shQuote(c.Name+":"+c.Summary))
	}
	fmt.Fprint(w, "      'help:a command'\"'\"'s flags' 'version:print the version'\n    )\n"+
		"    _describe command cmds\n    return\n  fi\n  local -a flags\n  case $words[2] in\n")
	for _, c := range cs {
		fmt.Fprintf(w, "    %s) flags=(%s) ;;\n", c.Name, c.dashed())
	}
	fmt.Fprint(w, "  esac\n  if [[ $PREFIX == -* ]]; then\n    compadd -- $flags\n  else\n    _files\n  fi\n}\n"+
		"compdef _conc conc\n")
}

// Fish writes the fish script, with each flag's usage as its description.
func Fish(w io.Writer, cs []Command) {
	fmt.Fprint(w, "# fish completion for conc: conc completion fish > ~/.config/fish/completions/conc.fish\n")
	for _, c := range cs {
		fmt.Fprintf(w, "complete -c conc -f -n __fish_use_subcommand -a %s -d %s\n", c.Name, shQuote(c.Summary))
	}
	fmt.Fprint(w, "complete -c conc -f -n __fish_use_subcommand -a help -d 'a command'\\''s flags'\n"+
		"complete -c conc -f -n __fish_use_subcommand -a version -d 'print the version'\n")
	for _, c := range cs {
		for _, f := range append(c.Flags, &flag.Flag{Name: "help", Usage: "the command's help"}) {
			_, usage := flag.UnquoteUsage(f)
			usage, _, _ = strings.Cut(usage, "\n")
			fmt.Fprintf(w, "complete -c conc -n '__fish_seen_subcommand_from %s' -l %s -d %s\n", c.Name, f.Name, shQuote(usage))
		}
	}
}

// shQuote quotes s for sh, zsh and fish in single quotes.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
