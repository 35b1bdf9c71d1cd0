package gen

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// MaxSize bounds every size a family reads.
const MaxSize = 1_000_000

// Knob is one size a family reads, named after its conc gen flag, with the
// values that make an instance of the family: a size outside them is an
// error, never rounded to a value the user did not ask for.
type Knob struct {
	Name     string // conc gen's flag: threads, n, vars, locks, txn, depth, m, states, letters, clauses
	Min, Max int
}

// Reads is what a family (or one of conc gen's modes, such as an input
// file) reads from Params: its sizes and its switches, by flag name.
type Reads struct {
	Knobs    []Knob
	Switches []string // loops, choice, recursion, nested, unary, sync, identical, twin
	// Requires names, for a flag read only under a switch, that switch.
	Requires map[string]string
	// Seeded: the family draws at random, so it reads --seed; the others
	// write one instance whatever the seed, and refuse it like any flag
	// they do not read.
	Seeded bool
}

// at is a knob from min to MaxSize.
func at(name string, min int) Knob { return Knob{Name: name, Min: min, Max: MaxSize} }

// Check checks the flags given on the command line (their names, as set)
// against r for the family named what: a flag r does not read, or a size
// out of its knob's range, is an error. Each bad flag has an error of its
// own, one a line. Flags that are no size or switch of Params are the
// caller's.
func (r Reads) Check(what string, p Params, given []string) error {
	var errs []error
	for _, name := range given {
		if name == "seed" && !r.Seeded {
			errs = append(errs, fmt.Errorf("--seed does not apply to %s (it draws nothing at random; %s)", what, r.describe()))
			continue
		}
		v, isKnob := p.size(name)
		_, isSwitch := p.switchOn(name)
		if !isKnob && !isSwitch {
			continue
		}
		i := slices.IndexFunc(r.Knobs, func(k Knob) bool { return k.Name == name })
		switch {
		case i < 0 && !slices.Contains(r.Switches, name):
			errs = append(errs, fmt.Errorf("--%s does not apply to %s (%s)", name, what, r.describe()))
		case i >= 0 && (v < r.Knobs[i].Min || v > r.Knobs[i].Max):
			errs = append(errs, fmt.Errorf("--%s %d: %s wants %d to %d", name, v, what, r.Knobs[i].Min, r.Knobs[i].Max))
		case r.Requires[name] != "":
			if on, _ := p.switchOn(r.Requires[name]); !on {
				errs = append(errs, fmt.Errorf("--%s goes with --%s in %s", name, r.Requires[name], what))
			}
		}
	}
	return errors.Join(errs...)
}

// describe lists the flags r reads, for an error message.
func (r Reads) describe() string {
	var fs []string
	for _, k := range r.Knobs {
		fs = append(fs, "--"+k.Name)
	}
	for _, s := range r.Switches {
		fs = append(fs, "--"+s)
	}
	if r.Seeded {
		fs = append(fs, "--seed")
	}
	if len(fs) == 0 {
		return "it reads no size"
	}
	return "it reads " + strings.Join(fs, ", ")
}

// orDefault is a size, or the family's default d when the size is zero
// (not given): a size given is used as it is.
func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// size is p's size named by its flag.
func (p Params) size(name string) (int, bool) {
	v, ok := map[string]int{
		"threads": p.Threads, "n": p.EventsPerThread, "vars": p.Vars, "locks": p.Locks, "txn": p.TxnLen,
		"depth": p.Depth, "m": p.M, "states": p.States, "letters": p.Letters, "clauses": p.Clauses,
	}[name]
	return v, ok
}

// switchOn is p's switch named by its flag.
func (p Params) switchOn(name string) (bool, bool) {
	v, ok := map[string]bool{
		"loops": p.Loops, "choice": p.Choice, "recursion": p.Recursion, "nested": p.Nested,
		"unary": p.Unary, "sync": p.Sync, "identical": p.Identical, "twin": p.Twin,
	}[name]
	return v, ok
}
