package main

import (
	"flag"
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

// genFlags are conc gen's flags (gen.Request): the sizes and switches of
// gen.Params, the input files of the two reductions, and --trace for
// random STD traces.
type genFlags struct {
	gen.Request
	fs *flag.FlagSet // to tell the flags given from the defaults
}

func (f *genFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	p := &f.Params
	fs.Uint64Var(&f.Seed, "seed", 1, "seed of the random choices (random, np, w1): the same seed writes the same output")
	fs.IntVar(&p.Threads, "threads", 0, "threads `k` (random, chain, locked; w1: random DFAs; w1-counters: counting automata)")
	fs.IntVar(&p.EventsPerThread, "n", 0, "size `n`: accesses per thread (random), unary writes before the cycle (chain), critical sections (locked)")
	fs.IntVar(&p.Vars, "vars", 0, "shared variables (random; --trace), or the formula's variables (np)")
	cliflag.Count(fs, "locks", "`locks` (random with --sync, locked; --trace: default 2, 0 for none)", &p.Locks, nil)
	fs.IntVar(&p.TxnLen, "txn", 0, "most accesses in one transaction (random; --trace)")
	fs.BoolVar(&p.Loops, "loops", false, "random: loop and repeat (regular programs)")
	fs.BoolVar(&p.Choice, "choice", false, "random: choose")
	fs.BoolVar(&p.Recursion, "recursion", false, "random: recursive procedures")
	fs.BoolVar(&p.Nested, "nested", false, "random: nested atomic blocks")
	fs.BoolVar(&p.Unary, "unary", false, "random: accesses outside atomic blocks")
	fs.BoolVar(&p.Sync, "sync", false, "random: locks; deep: the other thread under a lock")
	fs.BoolVar(&p.Identical, "identical", false, "random: the last two threads share one declaration")
	fs.IntVar(&p.Depth, "depth", 0, "deep: the call depth `d` the violation needs")
	fs.BoolVar(&p.Twin, "twin", false, "chain: the serializable twin")
	fs.IntVar(&p.M, "m", 0, "w1: the least length `m` of the common word")
	fs.IntVar(&p.States, "states", 0, "w1: states of each random DFA; w1-counters: half the states of each counting automaton")
	fs.IntVar(&p.Letters, "letters", 0, "w1: letters of the random DFAs' alphabet")
	fs.IntVar(&p.Clauses, "clauses", 0, "np, view-np: clauses of the random 3-CNF formula")
	fs.StringVar(&f.DFAFile, "dfa", "", "w1: read the DFAs from `FILE` (conc's DFA text format; - for stdin) instead of drawing them")
	fs.StringVar(&f.CNFFile, "cnf", "", "np, view-np: read the formula from `FILE` (DIMACS CNF; - for stdin) instead of drawing it")
	fs.BoolVar(&f.Trace, "trace", false, "random: write a random STD trace instead of a program (default sizes: --threads 4 --vars 4 --locks 2 --txn 4)")
	fs.Int64Var(&f.Events, "events", 1000, "--trace: about this many events")
}

// runGen is conc gen: write one instance of a family to standard output.
// Without a family it lists the families.
func runGen(e *env, args []string) int {
	var f genFlags
	pos, code, done := parseCommand(e, "gen", f.register, args)
	switch {
	case done:
		return code
	case len(pos) == 0:
		io.WriteString(e.stdout, gen.FamilyList())
		return 0
	case len(pos) > 1:
		return e.errorf("gen: want one FAMILY, got %d; run 'conc gen' for the list", len(pos))
	}
	f.fs.Visit(func(fl *flag.Flag) { f.Given = append(f.Given, fl.Name) })
	if err := f.Check(pos[0]); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			e.errorf("gen: %s", line)
		}
		return exitUsage
	}
	var err error
	if f.Trace {
		err = f.randomTrace(e.stdout)
	} else {
		var out string
		out, err = f.Generate(pos[0], func(path string) ([]byte, error) { _, text, err := readInput(e, path); return text, err })
		if err == nil {
			_, err = io.WriteString(e.stdout, out)
		}
	}
	if err != nil {
		return e.errorf("gen: %v", err)
	}
	return 0
}

// randomTrace writes a random STD trace with trace.Gen to w as it is
// drawn (a trace of 10^8 events is never in memory), the sizes its flags
// leave out at trace.RandomDefaults' (an explicit --locks 0 is none).
func (f *genFlags) randomTrace(w io.Writer) error {
	p := f.Params
	o := trace.GenOptions{Seed: f.Seed, Events: f.Events, Threads: p.Threads, Vars: p.Vars, Locks: p.Locks, TxnLen: p.TxnLen}
	_, err := trace.NewGen(o.Random(slices.Contains(f.Given, "locks"))).WriteTo(w)
	return err
}
