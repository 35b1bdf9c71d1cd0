package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// WriteMarkdown writes a sweep for a document (conc bench --markdown,
// which scripts/lab.sh splices into docs/complexity.md): the command that
// made it and the machine it ran on, the points as a Markdown table, and
// the fitted growth. The points should be AsPrinted, so that the fits are
// those of the table a reader sees, and ParseTable gives them back.
func WriteMarkdown(w io.Writer, command, machine string, points []Point) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Made by `%s` on %s.\n\n", command, machine)
	b.WriteString("| engine | n | k | threads | verdict | states | time | memory |\n")
	b.WriteString("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n")
	for _, p := range points {
		if p.Skipped != "" {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | skipped: %s | - | - | - |\n", p.Engine, p.N, p.K, p.Threads, p.Skipped)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s | %d | %s | %s |\n", p.Engine, p.N, p.K, p.Threads, p.Verdict, p.States,
			FormatDuration(p.Time), FormatBytes(p.Alloc))
	}
	if gs := Fits(points); len(gs) > 0 {
		b.WriteString("\nFitted growth (least squares on log-log axes, from the table):\n\n```text\n")
		if err := WriteFits(&b, gs); err != nil {
			return err
		}
		b.WriteString("```\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// AsPrinted rounds the points' times and memory to what the tables print
// (three significant digits), so that the fits and plots made from them
// can be made again from a table.
func AsPrinted(points []Point) []Point {
	out := append([]Point(nil), points...)
	for i := range out {
		out[i].Time, _ = ParseDuration(FormatDuration(out[i].Time))
		out[i].Alloc, _ = ParseBytes(FormatBytes(out[i].Alloc))
	}
	return out
}

// ParseTable reads back the points of a table WriteMarkdown wrote (the
// lines from its header to the first line that is not a table row).
func ParseTable(md string) ([]Point, error) {
	var out []Point
	in := false
	for i, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "| engine | n | k |"):
			in = true
			continue
		case !in || strings.HasPrefix(line, "| --- "):
			continue
		case !strings.HasPrefix(line, "|"):
			return out, nil
		}
		p, err := parseRow(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		out = append(out, p)
	}
	if !in {
		return nil, fmt.Errorf("no table")
	}
	return out, nil
}

// parseRow reads one row of WriteMarkdown's table.
func parseRow(line string) (Point, error) {
	c := strings.Split(strings.Trim(line, "| "), " | ")
	if len(c) != 8 {
		return Point{}, fmt.Errorf("want 8 cells, have %d: %q", len(c), line)
	}
	var p Point
	var err error
	p.Engine = c[0]
	ints := []*int{&p.N, &p.K, &p.Threads}
	for j, dst := range ints {
		if *dst, err = strconv.Atoi(c[1+j]); err != nil {
			return p, err
		}
	}
	if why, ok := strings.CutPrefix(c[4], "skipped: "); ok {
		p.Skipped = why
		return p, nil
	}
	p.Verdict = c[4]
	if p.States, err = strconv.ParseInt(c[5], 10, 64); err != nil {
		return p, err
	}
	if p.Time, err = ParseDuration(c[6]); err != nil {
		return p, err
	}
	p.Alloc, err = ParseBytes(c[7])
	return p, err
}

// ParseDuration reads what FormatDuration prints.
func ParseDuration(s string) (time.Duration, error) {
	if v, ok := strings.CutSuffix(s, "µs"); ok {
		f, err := strconv.ParseFloat(v, 64)
		return time.Duration(f*float64(time.Microsecond) + 0.5), err
	}
	return time.ParseDuration(s)
}

// ParseBytes reads what FormatBytes prints.
func ParseBytes(s string) (uint64, error) {
	unit := uint64(1)
	if i := strings.IndexAny(s, "KMGT"); i >= 0 {
		unit = 1 << (10 * (1 + strings.IndexByte("KMGT", s[i])))
		s = s[:i] + "B"
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "B"), 64)
	if err != nil {
		return 0, fmt.Errorf("memory %q: %v", s, err)
	}
	return uint64(f*float64(unit) + 0.5), nil
}
