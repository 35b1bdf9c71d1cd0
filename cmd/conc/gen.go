package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/conc-dev/conc/dfa"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/trace"
)

func init() {
	register(&command{
		name:    "gen",
		args:    "FAMILY [flags]",
		summary: "write a generated program (scaling and reduction families)",
		run:     runGen,
		more:    familyList,
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
	countVar(fs, "locks", "`locks` (random with --sync, locked; --trace: default 2, 0 for none)", &f.p.Locks, nil)
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
	fs.IntVar(&f.p.Clauses, "clauses", 0, "np: clauses of the random 3-CNF formula")
	fs.StringVar(&f.dfaFile, "dfa", "", "w1: read the DFAs from `FILE` (conc's DFA text format; - for stdin) instead of drawing them")
	fs.StringVar(&f.cnfFile, "cnf", "", "np: read the formula from `FILE` (DIMACS CNF; - for stdin) instead of drawing it")
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
		io.WriteString(e.stdout, familyList())
		return 0
	}
	if len(pos) > 1 {
		return e.errorf("gen: want one FAMILY, got %d; run 'conc gen' for the list", len(pos))
	}
	if err := f.inputsFit(pos[0]); err != nil {
		return e.errorf("gen: %v", err)
	}
	if err := f.reads(pos[0]).Check(f.what(pos[0]), f.p, f.given()); err != nil {
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

// inputsFit checks that --dfa, --cnf and --trace go with the family.
func (f *genFlags) inputsFit(family string) error {
	if _, err := gen.Lookup(family); err != nil {
		return err
	}
	switch {
	case f.dfaFile != "" && family != "w1", f.cnfFile != "" && family != "np":
		return fmt.Errorf("--dfa goes with w1 and --cnf with np, not %s", family)
	case f.trace && family != "random":
		return fmt.Errorf("--trace goes with the random family, not %s", family)
	case !f.trace && slices.Contains(f.given(), "events"):
		return fmt.Errorf("--events goes with --trace")
	case f.trace && f.events < 1:
		return fmt.Errorf("--events %d: --trace wants 1 or more", f.events)
	}
	return nil
}

// traceReads are the sizes of a random trace: no switch, and --locks 0
// means a trace without locks.
var traceReads = gen.Reads{Knobs: []gen.Knob{
	{Name: "threads", Min: 1, Max: gen.MaxSize}, {Name: "vars", Min: 1, Max: gen.MaxSize},
	{Name: "locks", Min: 0, Max: gen.MaxSize}, {Name: "txn", Min: 1, Max: gen.MaxSize},
}, Seeded: true}

// reads is what the family reads in the mode the flags choose: a formula
// or automata read from a file leave only --m (w1's word length).
func (f *genFlags) reads(family string) gen.Reads {
	fam, _ := gen.Lookup(family)
	switch {
	case f.trace:
		return traceReads
	case f.cnfFile != "":
		return gen.Reads{}
	case f.dfaFile != "":
		return gen.Reads{Knobs: []gen.Knob{{Name: "m", Min: 0, Max: gen.MaxSize}}}
	}
	return fam.Reads
}

// what names the family and mode in messages.
func (f *genFlags) what(family string) string {
	switch {
	case f.trace:
		return family + " --trace"
	case f.cnfFile != "":
		return family + " --cnf"
	case f.dfaFile != "":
		return family + " --dfa"
	}
	return family
}

// given lists the flags set on the command line.
func (f *genFlags) given() []string {
	var names []string
	f.fs.Visit(func(fl *flag.Flag) { names = append(names, fl.Name) })
	return names
}

// sizeFlags lists the family's size flags, for the cap's message.
func sizeFlags(r gen.Reads) string {
	var fs []string
	for _, k := range r.Knobs {
		fs = append(fs, "--"+k.Name)
	}
	if len(fs) < 2 {
		return strings.Join(fs, "")
	}
	return strings.Join(fs[:len(fs)-1], ", ") + " or " + fs[len(fs)-1]
}

// generate writes the family's instance: from the input file for w1 and
// np when one is given, else the family's generator under the seed.
func (f *genFlags) generate(e *env, family string) (string, error) {
	fam, err := gen.Lookup(family)
	if err != nil {
		return "", err
	}
	switch {
	case f.dfaFile != "":
		_, text, err := readInput(e, f.dfaFile)
		if err != nil {
			return "", err
		}
		s, err := dfa.Parse(string(text))
		if err != nil {
			return "", fmt.Errorf("%s: %v", f.dfaFile, err)
		}
		if err := gen.CheckBytes(gen.W1Bytes(s, f.p.M), "--m or the automata's sizes"); err != nil {
			return "", err
		}
		return gen.W1(s, max(f.p.M, 0)), nil
	case f.cnfFile != "":
		_, text, err := readInput(e, f.cnfFile)
		if err != nil {
			return "", err
		}
		cnf, err := gen.ParseDIMACS(string(text))
		if err != nil {
			return "", fmt.Errorf("%s: %v", f.cnfFile, err)
		}
		if err := gen.CheckBytes(gen.NPBytes(cnf), "the formula's size"); err != nil {
			return "", err
		}
		return gen.NP(cnf), nil
	}
	if err := gen.CheckBytes(fam.Bytes(f.p), sizeFlags(fam.Reads)); err != nil {
		return "", err
	}
	return fam.Gen(rand.New(rand.NewPCG(f.seed, 0)), f.p), nil
}

// randomTrace writes a random STD trace with trace.Gen to w as it is
// drawn (a trace of 10^8 events is never in memory): transactions take one
// lock and touch what it guards, except for some unprotected accesses,
// which is how violations get in; without locks every access is
// unprotected.
func (f *genFlags) randomTrace(w io.Writer) error {
	p := f.p
	locks := p.Locks
	if !slices.Contains(f.given(), "locks") { // an explicit 0 is none
		locks = traceDefaults.Locks
	}
	g := trace.NewGen(trace.GenOptions{
		Seed: f.seed, Events: f.events, Threads: max(orDefault(p.Threads, traceDefaults.Threads), 2),
		Vars: max(orDefault(p.Vars, traceDefaults.Vars), 2), Locks: locks,
		TxnLen:      max(orDefault(p.TxnLen, traceDefaults.TxnLen), 2),
		Unprotected: 0.1, Unary: 0.1, Writes: 0.5,
	})
	_, err := g.WriteTo(w)
	return err
}

// traceDefaults are the sizes of a random trace that its flags leave out:
// with one lock every access is guarded by it and every trace is
// serializable, so two locks and four threads, whose unprotected accesses
// make the default trace (seed 1, 1000 events) violate, as observed and
// as predicted.
var traceDefaults = trace.GenOptions{Threads: 4, Vars: 4, Locks: 2, TxnLen: 4}

// orDefault is n, or def when n was left out (0).
func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// familyList lists the families, each with its sentence, wrapped to the
// terminal's usual width under its name.
func familyList() string {
	var b strings.Builder
	b.WriteString("Families (conc gen FAMILY [flags]):\n")
	for _, n := range gen.Families() {
		fam, _ := gen.Lookup(n)
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
