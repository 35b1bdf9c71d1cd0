package check

import (
	"fmt"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all" // every engine can be asked for
	"github.com/conc-dev/conc/model"
)

// Choose resolves --engine for p, the program as it will be checked
// (after --ignore-sync has dropped its lock, fork and join events), and checks
// that the engine accepts p under opts.
//
// auto is the registry's choice (engines.Auto): the paper's order of
// preference, profile (Lemma 3 / Theorem 1) for programs without
// synchronisation, global (Theorem 4) for those with locks, fork or join,
// brute last; the report's engine field says which engine answered. An
// explicit --engine is taken as asked; one that does not decide
// synchronisation refuses a program with it (engines.SyncError names the
// flags).
func Choose(name string, p *model.Program, opts engines.Options) (*engines.Engine, error) {
	if name == "auto" {
		return engines.Auto(p, opts)
	}
	eng, err := engines.Lookup(name)
	if err != nil {
		return nil, UnknownEngine(name)
	}
	if eng.Decides.LockFree && p.HasSync() {
		return nil, engines.SyncError(name, "a program")
	}
	if err := eng.Supports(p, opts); err != nil {
		return nil, fmt.Errorf("--engine %s: %v", eng.Name, err)
	}
	return eng, nil
}

// Registered reports whether name is an engine of the registry.
func Registered(name string) bool {
	_, err := engines.Lookup(name)
	return err == nil
}

// Why says, in a sentence for a learner (conc serve's playground),
// why asked (--engine) became eng for p: above all why a program with
// locks, fork or join needs the global engine's product.
func Why(asked string, p *model.Program, eng *engines.Engine, opts engines.Options) string {
	switch {
	case asked != "auto":
		return fmt.Sprintf("The %s engine decides it, as --engine asked.", eng.Name)
	case eng.Name == "profile":
		return "No locks, fork or join: the profile engine decides it from each thread's profiles alone " +
			"(Lemma 3, Theorem 1), without building the product of the threads."
	case p.HasSync() && eng.Name == "global":
		return "The program uses locks, fork or join. A thread's profiles record its accesses but not " +
			"which locks it holds, so two profiles that look compatible may never run together; " +
			"auto therefore took the global engine, which searches the product of the threads " +
			"with the lock owners (Theorem 4)."
	}
	why := "it was the first engine, of profile, global and brute, that supports the program"
	if prof, err := engines.Lookup("profile"); err == nil {
		if err := prof.Supports(p, opts); err != nil {
			why = "the profile engine cannot decide it (" + err.Error() + ")"
		}
	}
	return fmt.Sprintf("auto took the %s engine: %s.", eng.Name, why)
}

// UnknownEngine is the usage error of an --engine value that names no
// engine: it offers docs/spec.md §4's values, not the tests' engines.
func UnknownEngine(name string) error {
	return fmt.Errorf("--engine %q: want auto, profile, global or brute", name)
}
