// Package cliflag is conc's flag dialect over package flag: flags spelled
// --name, given before, between or after the arguments, bad values named
// with why (docs/spec.md §4), a near miss answered with a suggestion, and
// the value types several commands share (counts, durations).
package cliflag

import (
	"errors"
	"flag"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Parse parses args with flags before, between or after the positional
// arguments (users type "conc check f.conc --format json"); "--" ends the
// flags. Package flag's own output is discarded: for --help it returns
// flag.ErrHelp, and other errors are returned for the caller to report
// (Message).
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// Defaults is fs's PrintDefaults, each flag spelled "--name".
func Defaults(fs *flag.FlagSet) string {
	var defaults strings.Builder
	fs.SetOutput(&defaults)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	// package flag prints "-name"; conc's docs and messages say "--name".
	return helpDash.ReplaceAllString(defaults.String(), "$1--")
}

// Message is a flag parse error of fs in conc's words: "--name VALUE:
// why" for a bad value, "--name" for package flag's "-name", and a
// suggestion for a flag that is not defined.
func Message(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := badValue.FindStringSubmatch(msg); m != nil {
		why := m[3]
		if f := fs.Lookup(m[2]); f != nil && wantOf(f) != "" {
			why = wantOf(f)
		}
		msg = "--" + m[2] + " " + m[1] + ": " + why
	}
	msg = dashDash.ReplaceAllString(msg, "$1--$2")
	if name := undefinedFlag(err.Error()); name != "" {
		msg += DidYouMean(name, flagNames(fs), "--")
	}
	return msg
}

// helpDash is the dash before a flag's name in PrintDefaults' output.
var helpDash = regexp.MustCompile(`(?m)^(  )-`)

// dashDash rewrites package flag's "-name" as "--name", the spelling of
// docs/spec.md §4 and of our usage messages.
var dashDash = regexp.MustCompile(`(^|[: ])-([a-z])`)

// badValue matches package flag's `invalid value "5" for flag -timeout:
// why` (and `invalid boolean value "x" for -quiet: why`), which flagError
// rewrites as `--timeout "5": why`, the form of conc's own flag checks.
var badValue = regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-([a-z-]+): (.*)$`)

// Count defines a flag of a count of 0 or more. set, when not nil,
// records whether it was given, for a flag whose absence means something
// other than any value.
func Count(fs *flag.FlagSet, name, usage string, n *int, set *bool) {
	fs.Func(name, usage, func(s string) error {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return errors.New("want a count of 0 or more")
		}
		*n = v
		if set != nil {
			*set = true
		}
		return nil
	})
}

// wantOf says what a flag of one of package flag's own types wants, for
// its bad values: flag says only "parse error" ("--quiet=maybe",
// "--max-cycle x") or "value out of range", and docs/spec.md §4 wants each
// bad value named with why. It returns "" for the flags conc defines with
// its own checks, which say why themselves.
func wantOf(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case bool:
		return "want true or false"
	case int, int64:
		return "want a whole number"
	case uint, uint64:
		return "want a whole number, 0 or more"
	case time.Duration:
		return "want a duration such as 30s, 5m or 1h30m"
	}
	return ""
}
