package budget

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// units are the suffixes Parse accepts, in bytes. K, M, G and T are binary
// too (as in ulimit, docker and GOMEMLIMIT's KiB…TiB): a budget is sized
// against RAM, which is counted in powers of two.
var units = []struct {
	suffix string
	bytes  int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30}, {"tb", 1 << 40},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// Parse reads a size such as 4GiB, 512MiB, 1.5G or 1000000 (bytes). It
// accepts only sizes of at least 1 MiB: a smaller budget is a typo (a
// count of bytes meant as MiB), as no run fits in it.
func Parse(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult, unit := int64(1), false
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult, unit = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.bytes, true
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("want a size such as 512MiB or 4GiB")
	}
	n := v * float64(mult)
	switch {
	case n >= math.MaxInt64:
		return math.MaxInt64, nil
	case n < 1<<20 && !unit:
		return 0, fmt.Errorf("want at least 1MiB; a size needs a unit, e.g. 512MiB or 4GiB")
	case n < 1<<20:
		return 0, fmt.Errorf("want at least 1MiB")
	}
	return int64(n), nil
}

// Format writes a size for people: whole GiB or MiB when exact, else one
// decimal (1.5 GiB), else bytes.
func Format(n int64) string {
	for _, u := range []struct {
		name  string
		bytes int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.bytes {
			if n%u.bytes == 0 {
				return fmt.Sprintf("%d %s", n/u.bytes, u.name)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.bytes), u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Count writes a count with thousands separators (12,345,678), as the
// reasons of unknown answers print state counts.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
