package main

import (
	"flag"
	"time"
)

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
