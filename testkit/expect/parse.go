package expect

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/conc-dev/conc/engines"
)

// Want is one expectation: the verdict wanted under the options its flags
// set.
type Want struct {
	Line    int // 1-based line of the comment
	Verdict engines.Verdict
	Flags   []string // as written, normalised to --name or --name=N
	Options engines.Options
}

// String renders w as it would be written after "// want ".
func (w Want) String() string {
	return strings.Join(append([]string{w.Verdict.String()}, w.Flags...), " ")
}

// Key names the question w answers: its flags, or "default".
func (w Want) Key() string {
	if len(w.Flags) == 0 {
		return "default"
	}
	return strings.Join(w.Flags, " ")
}

// wantRE matches a want comment; a verdict must follow "want" at once, so
// prose such as "// want to see ..." is not an expectation.
var wantRE = regexp.MustCompile(`//\s*want\s+(violation|serializable|unknown)\b(.*)$`)

// Parse returns the expectations of src in line order. It fails on a want
// line with an unknown flag and on two wants for the same flags.
func Parse(src string) ([]Want, error) {
	var ws []Want
	seen := map[string]int{}
	for i, line := range strings.Split(src, "\n") {
		m := wantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		w, err := parseWant(i+1, m[1], strings.Fields(m[2]))
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[w.Key()]; dup {
			return nil, fmt.Errorf("line %d: second want for %s (first at line %d)", w.Line, w.Key(), prev)
		}
		seen[w.Key()] = w.Line
		ws = append(ws, w)
	}
	return ws, nil
}

func parseWant(line int, verdict string, args []string) (Want, error) {
	w := Want{Line: line}
	for i, v := range []string{"serializable", "violation", "unknown"} {
		if v == verdict {
			w.Verdict = engines.Verdict(i)
		}
	}
	for len(args) > 0 {
		name, val, hasVal := strings.Cut(args[0], "=")
		args = args[1:]
		if hasVal && !needsValue(name) {
			return w, fmt.Errorf("line %d: %s takes no value", line, name)
		}
		if !hasVal && needsValue(name) {
			if len(args) == 0 {
				return w, fmt.Errorf("line %d: %s needs a number", line, name)
			}
			val, args = args[0], args[1:]
		}
		if err := w.setFlag(name, val); err != nil {
			return w, fmt.Errorf("line %d: %v", line, err)
		}
	}
	return w, nil
}

func needsValue(name string) bool {
	switch name {
	case "--max-depth", "--max-stack", "--max-states":
		return true
	}
	return false
}

// setFlag applies one flag to w's options and records it.
func (w *Want) setFlag(name, val string) error {
	switch name {
	case "--lock-edges":
		w.Options.LockEdges = true
	case "--ignore-sync":
		w.Options.IgnoreSync = true
	case "--max-depth", "--max-stack", "--max-states":
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 {
			return fmt.Errorf("%s wants a positive number, not %q", name, val)
		}
		switch name {
		case "--max-depth":
			w.Options.MaxDepth = n
		case "--max-stack":
			w.Options.MaxStack = n
		default:
			w.Options.MaxStates = n
		}
		w.Flags = append(w.Flags, name+"="+val)
		return nil
	default:
		return fmt.Errorf("unknown flag %q in want line", name)
	}
	w.Flags = append(w.Flags, name)
	return nil
}
