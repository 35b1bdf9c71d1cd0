package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/conc-dev/conc/dfa"
)

// Mode is where conc gen's instance comes from besides the family's
// generator: w1's automata read from a file (DFA), np's formula read from
// one (CNF), or a random STD trace instead of a program (Trace).
type Mode struct{ DFA, CNF, Trace bool }

// Fits checks that the mode goes with the family, in the words of conc
// gen's flags.
func (m Mode) Fits(family string) error {
	if _, err := Lookup(family); err != nil {
		return err
	}
	switch {
	case m.DFA && family != "w1", m.CNF && family != "np" && family != "view-np":
		return fmt.Errorf("--dfa goes with w1 and --cnf with np and view-np, not %s", family)
	case m.Trace && family != "random":
		return fmt.Errorf("--trace goes with the random family, not %s", family)
	}
	return nil
}

// TraceReads are the sizes of a random trace: no switch, and --locks 0
// means a trace without locks.
var TraceReads = Reads{Knobs: []Knob{
	{Name: "threads", Min: 1, Max: MaxSize}, {Name: "vars", Min: 1, Max: MaxSize},
	{Name: "locks", Min: 0, Max: MaxSize}, {Name: "txn", Min: 1, Max: MaxSize},
}, Seeded: true}

// Reads is what the family reads in the mode: a formula or automata read
// from a file leave only --m (w1's word length).
func (m Mode) Reads(family string) Reads {
	fam, _ := Lookup(family)
	switch {
	case m.Trace:
		return TraceReads
	case m.CNF:
		return Reads{}
	case m.DFA:
		return Reads{Knobs: []Knob{{Name: "m", Min: 0, Max: MaxSize}}}
	}
	return fam.Reads
}

// Name names the family and mode in messages.
func (m Mode) Name(family string) string {
	switch {
	case m.Trace:
		return family + " --trace"
	case m.CNF:
		return family + " --cnf"
	case m.DFA:
		return family + " --dfa"
	}
	return family
}

// Seeded is the family's instance under the seed, refused before it is
// drawn when its estimate is over MaxBytes.
func Seeded(family string, seed uint64, p Params) (string, error) {
	fam, err := Lookup(family)
	if err != nil {
		return "", err
	}
	if err := CheckBytes(fam.Bytes(p), sizeFlags(fam.Reads)); err != nil {
		return "", err
	}
	return fam.Gen(rand.New(rand.NewPCG(seed, 0)), p), nil
}

// FromDFA is w1's instance for the automata in text (conc's DFA text
// format, read from the file name) and the word length m.
func FromDFA(name string, text []byte, m int) (string, error) {
	s, err := dfa.Parse(string(text))
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, err)
	}
	if err := CheckBytes(W1Bytes(s, m), "--m or the automata's sizes"); err != nil {
		return "", err
	}
	return W1(s, max(m, 0)), nil
}

// FromDIMACS is np's or view-np's instance for the formula in text
// (DIMACS CNF, read from the file name).
func FromDIMACS(family, name string, text []byte) (string, error) {
	cnf, err := ParseDIMACS(string(text))
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, err)
	}
	if family == "view-np" {
		occurrences := 0
		for _, c := range cnf.Clauses {
			occurrences += len(c)
		}
		if err := CheckBytes(viewNPBytes(cnf.Vars, occurrences), "the formula's size"); err != nil {
			return "", err
		}
		return ViewNP(cnf), nil
	}
	if err := CheckBytes(NPBytes(cnf), "the formula's size"); err != nil {
		return "", err
	}
	return NP(cnf), nil
}

// sizeFlags lists the family's size flags, for the cap's message.
func sizeFlags(r Reads) string {
	var fs []string
	for _, k := range r.Knobs {
		fs = append(fs, "--"+k.Name)
	}
	if len(fs) < 2 {
		return strings.Join(fs, "")
	}
	return strings.Join(fs[:len(fs)-1], ", ") + " or " + fs[len(fs)-1]
}

// FamilyList lists the families, each with its sentence, wrapped to the
// terminal's usual width under its name.
func FamilyList() string {
	var b strings.Builder
	b.WriteString("Families (conc gen FAMILY [flags]):\n")
	for _, n := range Families() {
		fam, _ := Lookup(n)
		fmt.Fprintf(&b, "  %s\n", n)
		for _, l := range wrap(fam.Doc+".", 72) {
			fmt.Fprintf(&b, "        %s\n", l)
		}
	}
	return b.String()
}

// wrap breaks text into lines of at most width bytes at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines, line = append(lines, line), ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
