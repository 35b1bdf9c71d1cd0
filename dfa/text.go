package dfa

import (
	"bufio"
	"fmt"
	"strings"
)

// Parse reads an instance in conc's DFA text format. Lines hold
// whitespace-separated words; # starts a comment. The first line names
// the alphabet, then each automaton is a block:
//
//	alphabet a b
//	dfa A1            # a name, then the block of A1
//	init q0           # the initial state (the first state)
//	accept q1 q2      # accepting states (may be empty or repeated)
//	q0 a q1           # transitions: state letter state
//	q1 b q1
//	dfa A2
//	...
//
// States are named by their first use; a missing transition rejects. An
// automaton with two transitions on one state and letter is an error, as
// is a letter outside the alphabet.
func Parse(text string) (*Set, error) {
	p := &parser{set: &Set{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		raw := sc.Text()
		if i := strings.IndexByte(raw, '#'); i >= 0 {
			raw = raw[:i]
		}
		if f := strings.Fields(raw); len(f) > 0 {
			if err := p.line(f); err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if p.letters == nil {
		return nil, fmt.Errorf("no alphabet line")
	}
	if len(p.set.DFAs) == 0 {
		return nil, fmt.Errorf("no automaton (want a \"dfa NAME\" line)")
	}
	for _, d := range p.set.DFAs {
		if len(d.States) == 0 {
			return nil, fmt.Errorf("automaton %s has no init line", d.Name)
		}
	}
	return p.set, nil
}

type parser struct {
	set     *Set
	letters map[string]int
	cur     *DFA
	states  map[string]int // of cur
}

func (p *parser) line(f []string) error {
	switch {
	case f[0] == "alphabet":
		return p.alphabet(f[1:])
	case p.letters == nil:
		return fmt.Errorf("want the alphabet line first")
	case f[0] == "dfa":
		if len(f) != 2 {
			return fmt.Errorf("want \"dfa NAME\"")
		}
		p.cur, p.states = &DFA{Name: f[1]}, map[string]int{}
		p.set.DFAs = append(p.set.DFAs, p.cur)
		return nil
	case p.cur == nil:
		return fmt.Errorf("want a \"dfa NAME\" line before %q", f[0])
	case f[0] == "init":
		if len(f) != 2 || len(p.cur.States) > 0 {
			return fmt.Errorf("want one \"init STATE\" line, before the transitions")
		}
		p.state(f[1])
		return nil
	case len(p.cur.States) == 0:
		return fmt.Errorf("want the \"init STATE\" line of %s first", p.cur.Name)
	case f[0] == "accept":
		for _, q := range f[1:] {
			p.cur.Accept[p.state(q)] = true
		}
		return nil
	case len(f) == 3:
		return p.transition(f[0], f[1], f[2])
	}
	return fmt.Errorf("want \"STATE LETTER STATE\", \"accept STATE...\" or \"dfa NAME\"")
}

func (p *parser) alphabet(letters []string) error {
	if p.letters != nil {
		return fmt.Errorf("a second alphabet line")
	}
	if len(letters) == 0 {
		return fmt.Errorf("empty alphabet")
	}
	p.letters = map[string]int{}
	for _, l := range letters {
		if _, dup := p.letters[l]; dup {
			return fmt.Errorf("letter %q twice", l)
		}
		p.letters[l] = len(p.set.Alphabet)
		p.set.Alphabet = append(p.set.Alphabet, l)
	}
	return nil
}

// state returns the index of state name in the current automaton, adding it.
func (p *parser) state(name string) int {
	if q, ok := p.states[name]; ok {
		return q
	}
	q := len(p.cur.States)
	p.states[name] = q
	p.cur.States = append(p.cur.States, name)
	p.cur.Accept = append(p.cur.Accept, false)
	row := make([]int, len(p.set.Alphabet))
	for a := range row {
		row[a] = -1
	}
	p.cur.Delta = append(p.cur.Delta, row)
	return q
}

func (p *parser) transition(from, letter, to string) error {
	a, ok := p.letters[letter]
	if !ok {
		return fmt.Errorf("letter %q is not in the alphabet", letter)
	}
	q, r := p.state(from), p.state(to)
	if old := p.cur.Delta[q][a]; old >= 0 && old != r {
		return fmt.Errorf("%s has two transitions from %s on %s: not deterministic", p.cur.Name, from, letter)
	}
	p.cur.Delta[q][a] = r
	return nil
}

// String writes s in the text format Parse reads.
func (s *Set) String() string {
	var sb strings.Builder
	sb.WriteString("alphabet " + strings.Join(s.Alphabet, " ") + "\n")
	for _, d := range s.DFAs {
		fmt.Fprintf(&sb, "dfa %s\ninit %s\naccept", d.Name, d.States[0])
		for q, acc := range d.Accept {
			if acc {
				sb.WriteString(" " + d.States[q])
			}
		}
		sb.WriteString("\n")
		for q, row := range d.Delta {
			for a, r := range row {
				if r >= 0 {
					fmt.Fprintf(&sb, "%s %s %s\n", d.States[q], s.Alphabet[a], d.States[r])
				}
			}
		}
	}
	return sb.String()
}
