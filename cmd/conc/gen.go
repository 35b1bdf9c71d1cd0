package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/internal/cliflag"
	"github.com/conc-dev/conc/trace"
)

func init() {
	register(&command{
		name:    "gen",
		args:    "FAMILY [flags]",
		summary: "write a generated program (scaling and reduction families)",
		run:     runGen,
		more:    gen.FamilyList,
	})
}

// genFlags are conc gen's flags: the sizes and switches of gen.Params, the
// input files of the two reductions, and --trace for random STD traces.
type genFlags struct {
	seed    uint64
	p       gen.Params
	dfaFile string
	cnfFile string
	trace   bool
	events  int64
	fs      *flag.FlagSet // to tell the flags given from the defaults
}

func (f *genFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random choices (random, np, w1): the same seed writes the same output")
	fs.IntVar(&f.p.Threads, "threads", 0, "threads `k` (random, chain, locked; w1: random DFAs; w1-counters: counting automata)")
	fs.IntVar(&f.p.EventsPerThread, "n", 0, "size `n`: accesses per thread (random), unary writes before the cycle (chain), critical sections (locked)")
	fs.IntVar(&f.p.Vars, "vars", 0, "shared variables (random; --trace), or the formula's variables (np)")
	cliflag.Count(fs, "locks", "`locks` (random with --sync, locked; --trace: default 2, 0 for none)", &f.p.Locks, nil)
	fs.IntVar(&f.p.TxnLen, "txn", 0, "most accesses in one transaction (random; --trace)")
	fs.BoolVar(&f.p.Loops, "loops", false, "random: loop and repeat (regular programs)")
	fs.BoolVar(&f.p.Choice, "choice", false, "random: choose")
	fs.BoolVar(&f.p.Recursion, "recursion", false, "random: recursive procedures")
	fs.BoolVar(&f.p.Nested, "nested", false, "random: nested atomic blocks")
	fs.BoolVar(&f.p.Unary, "unary", false, "random: accesses outside atomic blocks")
	fs.BoolVar(&f.p.Sync, "sync", false, "random: locks; deep: the other thread under a lock")
	fs.BoolVar(&f.p.Identical, "identical", false, "random: the last two threads share one declaration")
	fs.IntVar(&f.p.Depth, "depth", 0, "deep: the call depth `d` the violation needs")
	fs.BoolVar(&f.p.Twin, "twin", false, "chain: the serializable twin")
	fs.IntVar(&f.p.M, "m", 0, "w1: the least length `m` of the common word")
	fs.IntVar(&f.p.States, "states", 0, "w1: states of each random DFA; w1-counters: half the states of each counting automaton")
	fs.IntVar(&f.p.Letters, "letters", 0, "w1: letters of the random DFAs' alphabet")
	fs.IntVar(&f.p.Clauses, "clauses", 0, "np, view-np: clauses of the random 3-CNF formula")
	fs.StringVar(&f.dfaFile, "dfa", "", "w1: read the DFAs from `FILE` (conc's DFA text format; - for stdin) instead of drawing them")
	fs.StringVar(&f.cnfFile, "cnf", "", "np, view-np: read the formula from `FILE` (DIMACS CNF; - for stdin) instead of drawing it")
	fs.BoolVar(&f.trace, "trace", false, "random: write a random STD trace instead of a program (default sizes: --threads 4 --vars 4 --locks 2 --txn 4)")
	fs.Int64Var(&f.events, "events", 1000, "--trace: about this many events")
}

// runGen is conc gen: write one instance of a family to standard output.
// Without a family it lists the families.
func runGen(e *env, args []string) int {
	var f genFlags
	pos, code, done := parseCommand(e, "gen", f.register, args)
	if done {
		return code
	}
	if len(pos) == 0 {
		io.WriteString(e.stdout, gen.FamilyList())
		return 0
	}
	if len(pos) > 1 {
		return e.errorf("gen: want one FAMILY, got %d; run 'conc gen' for the list", len(pos))
	}
	if err := f.inputsFit(pos[0]); err != nil {
		return e.errorf("gen: %v", err)
	}
	if err := f.mode().Reads(pos[0]).Check(f.mode().Name(pos[0]), f.p, f.given()); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			e.errorf("gen: %s", line)
		}
		return exitUsage
	}
	if f.trace {
		if err := f.randomTrace(e.stdout); err != nil {
			return e.errorf("gen: %v", err)
		}
		return 0
	}
	out, err := f.generate(e, pos[0])
	if err != nil {
		return e.errorf("gen: %v", err)
	}
	if _, err := io.WriteString(e.stdout, out); err != nil {
		return e.errorf("gen: %v", err)
	}
	return 0
}

// mode is the instance's source that the flags choose.
func (f *genFlags) mode() gen.Mode {
	return gen.Mode{DFA: f.dfaFile != "", CNF: f.cnfFile != "", Trace: f.trace}
}

// inputsFit checks that --dfa, --cnf, --trace and --events go with the
// family.
func (f *genFlags) inputsFit(family string) error {
	if err := f.mode().Fits(family); err != nil {
		return err
	}
	switch {
	case !f.trace && slices.Contains(f.given(), "events"):
		return fmt.Errorf("--events goes with --trace")
	case f.trace && f.events < 1:
		return fmt.Errorf("--events %d: --trace wants 1 or more", f.events)
	}
	return nil
}

// given lists the flags set on the command line.
func (f *genFlags) given() []string {
	var names []string
	f.fs.Visit(func(fl *flag.Flag) { names = append(names, fl.Name) })
	return names
}

// generate writes the family's instance: from the input file for w1 and
// np when one is given, else the family's generator under the seed.
func (f *genFlags) generate(e *env, family string) (string, error) {
	switch {
	case f.dfaFile != "":
		_, text, err := readInput(e, f.dfaFile)
		if err != nil {
			return "", err
		}
		return gen.FromDFA(f.dfaFile, text, f.p.M)
	case f.cnfFile != "":
		_, text, err := readInput(e, f.cnfFile)
		if err != nil {
			return "", err
		}
		return gen.FromDIMACS(family, f.cnfFile, text)
	}
	return gen.Seeded(family, f.seed, f.p)
}

// randomTrace writes a random STD trace with trace.Gen to w as it is
// drawn (a trace of 10^8 events is never in memory), the sizes its flags
// leave out at trace.RandomDefaults' (an explicit --locks 0 is none).
func (f *genFlags) randomTrace(w io.Writer) error {
	p := f.p
	o := trace.GenOptions{Seed: f.seed, Events: f.events, Threads: p.Threads, Vars: p.Vars, Locks: p.Locks, TxnLen: p.TxnLen}
	_, err := trace.NewGen(o.Random(slices.Contains(f.given(), "locks"))).WriteTo(w)
	return err
}
