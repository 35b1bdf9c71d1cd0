package profiles

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/conc-dev/conc/model"
)

// Group is the profiles of the threads that share one automaton (thread
// W[n] declares n of them), as Write renders them.
type Group struct {
	Names    []string      `json:"names"`
	Class    string        `json:"class"`
	Count    int           `json:"count"`
	Profiles []ProfileJSON `json:"profiles"`
}

// ProfileJSON is one profile as data: its kind and its one or two accesses.
type ProfileJSON struct {
	Kind   string      `json:"kind"`
	Events []EventJSON `json:"events"`
}

// EventJSON is an access as docs/spec.md §5's run entries write it.
type EventJSON struct {
	Op     string `json:"op"`
	Target string `json:"target"`
}

// Groups extracts the profiles of p's threads, one group per automaton in
// order of first use; an extraction error is returned, and so is ctx's
// cause when it ends first (ExtractContext).
func Groups(ctx context.Context, p *model.Program) ([]Group, error) {
	var gs []Group
	index := map[*model.Automaton]int{}
	for _, t := range p.Threads {
		if i, ok := index[t.Auto]; ok {
			gs[i].Names = append(gs[i].Names, t.Name)
			continue
		}
		index[t.Auto] = len(gs)
		g := Group{Names: []string{t.Name}, Class: model.ClassOf(t.Auto).String(), Profiles: []ProfileJSON{}}
		pr, err := ExtractContext(ctx, t.Auto, len(p.Vars))
		if err != nil {
			return nil, fmt.Errorf("thread %s: %w", t.Name, err)
		}
		g.Count = pr.Count()
		for _, x := range pr.List() {
			g.Profiles = append(g.Profiles, profileJSON(p, x))
		}
		gs = append(gs, g)
	}
	return gs, nil
}

func profileJSON(p *model.Program, x Profile) ProfileJSON {
	ev := func(l Letter) EventJSON { return EventJSON{Op: l.Op().String(), Target: p.Vars[l.Var()]} }
	j := ProfileJSON{Kind: x.Kind.String(), Events: []EventJSON{ev(x.A)}}
	if x.Kind != KindSingle {
		j.Events = append(j.Events, ev(x.B))
	}
	return j
}

// Write renders the profiles of p's threads in format "text" or "json".
// Text prints a header per group and one profile a line, transactions in
// brackets: [read x] is ▷ read(x) ◁, [read x, write y] two accesses in one
// transaction, [read x] [write y] two in different transactions. The
// extraction watches ctx (Groups).
func Write(ctx context.Context, w io.Writer, p *model.Program, format string) error {
	gs, err := Groups(ctx, p)
	if err != nil {
		return err
	}
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			File    string   `json:"file,omitempty"`
			Vars    []string `json:"vars"`
			Threads []Group  `json:"threads"`
		}{p.File, append([]string{}, p.Vars...), append([]Group{}, gs...)})
	case "text", "":
		return writeText(w, gs)
	}
	return fmt.Errorf("profiles: unknown format %q (want text or json)", format)
}

func writeText(w io.Writer, gs []Group) error {
	var b strings.Builder
	if len(gs) == 0 {
		// Nothing printed would look like a failure (docs/spec.md §2).
		b.WriteString("note: the program has no threads\n")
	}
	for _, g := range gs {
		fmt.Fprintf(&b, "%s: ", groupName(g.Names, g.Class))
		fmt.Fprintf(&b, "%d %s\n", g.Count, plural(g.Count, "profile"))
		for _, x := range g.Profiles {
			fmt.Fprintf(&b, "  %s\n", profileText(x))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func groupName(names []string, class string) string {
	switch {
	case len(names) == 1:
		return fmt.Sprintf("thread %s (%s)", names[0], class)
	case len(names) <= 3:
		return fmt.Sprintf("threads %s (%s)", strings.Join(names, ", "), class)
	}
	return fmt.Sprintf("threads %s … %s (%d sharing one automaton, %s)", names[0], names[len(names)-1], len(names), class)
}

func profileText(x ProfileJSON) string {
	ev := func(e EventJSON) string { return e.Op + " " + e.Target }
	switch x.Kind {
	case "same":
		return "[" + ev(x.Events[0]) + ", " + ev(x.Events[1]) + "]"
	case "diff":
		return "[" + ev(x.Events[0]) + "] [" + ev(x.Events[1]) + "]"
	}
	return "[" + ev(x.Events[0]) + "]"
}

func plural(n int, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}
