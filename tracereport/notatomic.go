package tracereport

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/conc-dev/conc/trace"
)

// NotAtomic names the begins of blocks that are not atomic (--not-atomic):
// by trace line, or by the begin's code location. It records which names
// a begin had, so that the ones that named none can be told: a typo there
// would otherwise change nothing, silently.
type NotAtomic struct {
	Lines map[int64]bool
	Locs  map[string]bool
	used  map[string]bool
}

// is tells whether the begin ev, read by r, opens a block that is not
// atomic. It runs where the reader does (r's tables are its own then).
func (n *NotAtomic) is(r *trace.Reader, ev *trace.Event) bool {
	if n.Lines[ev.Line] {
		n.used["line:"+strconv.FormatInt(ev.Line, 10)] = true
		return true
	}
	if ev.Loc >= 0 && len(n.Locs) > 0 {
		if loc := r.Locs().Name(ev.Loc); n.Locs[loc] {
			n.used[loc] = true
			return true
		}
	}
	return false
}

// noteUnused says which names named no begin, on notes, once the trace
// is read.
func (n *NotAtomic) noteUnused(notes io.Writer) {
	if n == nil {
		return
	}
	var unused []string
	for l := range n.Lines {
		if spec := "line:" + strconv.FormatInt(l, 10); !n.used[spec] {
			unused = append(unused, spec)
		}
	}
	for loc := range n.Locs {
		if !n.used[loc] {
			unused = append(unused, loc)
		}
	}
	if len(unused) > 0 {
		slices.Sort(unused)
		fmt.Fprintf(notes, "conc: monitor: note: --not-atomic names no begin at %s\n", strings.Join(unused, ", "))
	}
}

// ParseNotAtomic reads --not-atomic's value: SPECs separated by commas,
// each a begin's LOC or line:N; a value @FILE reads them from FILE, one
// or more a line ('#' starts a comment).
func ParseNotAtomic(value string) (*NotAtomic, error) {
	given := value
	if name, ok := strings.CutPrefix(value, "@"); ok {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var specs []string
		for _, line := range strings.Split(string(data), "\n") {
			line, _, _ = strings.Cut(line, "#")
			specs = append(specs, line)
		}
		value = strings.Join(specs, ",")
	}
	n := &NotAtomic{Lines: map[int64]bool{}, Locs: map[string]bool{}}
	for _, spec := range strings.Split(value, ",") {
		spec = strings.TrimSpace(spec)
		if num, ok := strings.CutPrefix(spec, "line:"); ok {
			line, err := strconv.ParseInt(num, 10, 64)
			if err != nil || line < 1 {
				return nil, fmt.Errorf("want line:N with N a trace line (1 or more)%s", naming(spec, given))
			}
			n.Lines[line] = true
		} else if spec != "" {
			n.Locs[spec] = true
		}
	}
	if len(n.Lines)+len(n.Locs) == 0 {
		return nil, fmt.Errorf("no SPEC: want LOC or line:N, separated by commas")
	}
	return n, nil
}

// naming names the bad spec when the value holds more than it.
func naming(spec, value string) string {
	if spec == value {
		return ""
	}
	return fmt.Sprintf(", not %q", spec)
}

// Copy is n for another trace: the same names, with its own record of
// which named a begin (traces checked at once each keep their own).
func (n *NotAtomic) Copy() *NotAtomic {
	if n == nil {
		return nil
	}
	return &NotAtomic{Lines: n.Lines, Locs: n.Locs}
}
