package gen

import (
	"fmt"
	"slices"
)

// Request is conc gen's command line: the family's sizes and switches,
// the seed, the reductions' input files, --trace and --events, and the
// flags given (a size left out takes the family's default).
type Request struct {
	Seed             uint64
	Params           Params
	DFAFile, CNFFile string
	Trace            bool
	Events           int64
	Given            []string
}

// Mode is the instance's source that the request chooses.
func (r *Request) Mode() Mode {
	return Mode{DFA: r.DFAFile != "", CNF: r.CNFFile != "", Trace: r.Trace}
}

// Check checks that --dfa, --cnf, --trace and --events go with the
// family, and that the sizes given are ones it reads, in range
// (Reads.Check: one line per fault).
func (r *Request) Check(family string) error {
	m := r.Mode()
	if err := m.Fits(family); err != nil {
		return err
	}
	switch {
	case !r.Trace && slices.Contains(r.Given, "events"):
		return fmt.Errorf("--events goes with --trace")
	case r.Trace && r.Events < 1:
		return fmt.Errorf("--events %d: --trace wants 1 or more", r.Events)
	}
	return m.Reads(family).Check(m.Name(family), r.Params, r.Given)
}

// Generate is the family's instance: from the input file for w1, np and view-np
// when one is given (read reads it; "-" is standard input), else the
// family's generator under the seed.
func (r *Request) Generate(family string, read func(path string) ([]byte, error)) (string, error) {
	switch {
	case r.DFAFile != "":
		text, err := read(r.DFAFile)
		if err != nil {
			return "", err
		}
		return FromDFA(r.DFAFile, text, r.Params.M)
	case r.CNFFile != "":
		text, err := read(r.CNFFile)
		if err != nil {
			return "", err
		}
		return FromDIMACS(family, r.CNFFile, text)
	}
	return Seeded(family, r.Seed, r.Params)
}
