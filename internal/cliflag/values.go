package cliflag

import (
	"errors"
	"flag"
	"strconv"
	"time"
)

// MaxTimeout is the longest --timeout kept as given: a longer one (up to
// Go's 2562047h47m16s) is practically no timeout, and clamping it keeps
// the deadline (now plus the timeout) well inside time.Time's range.
const MaxTimeout = 100 * 365 * 24 * time.Hour

// Timeout defines --timeout: a positive duration with a unit; without
// the flag the command's default applies (check, predict, profiles: five
// minutes; monitor: none).
func Timeout(fs *flag.FlagSet, d *time.Duration, usage string) {
	fs.Func("timeout", usage, func(s string) error {
		v, err := ParseTimeout(s)
		if err == nil {
			*d = v
		}
		return err
	})
}

// ParseTimeout reads a --timeout value. A bare number is refused with a
// hint rather than read in some unit (Go reads only "0" without one), and
// 0 is refused like -1s.
func ParseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return 0, errors.New("a duration needs a unit, e.g. 5s or 2m")
		}
		return 0, errors.New("want a duration such as 30s, 5m or 1h30m")
	}
	if d <= 0 {
		return 0, errors.New("want a positive duration, e.g. 30s or 2h")
	}
	return min(d, MaxTimeout), nil
}
