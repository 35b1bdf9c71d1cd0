package main

import (
	"fmt"

	"github.com/conc-dev/conc/engines"
	_ "github.com/conc-dev/conc/engines/all" // the CLI offers every engine
	"github.com/conc-dev/conc/model"
)

// chooseEngine resolves --engine for p, the program as it will be checked
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
func chooseEngine(_ *env, name string, p *model.Program, opts engines.Options) (*engines.Engine, error) {
	if name == "auto" {
		return engines.Auto(p, opts)
	}
	eng, err := engines.Lookup(name)
	if err != nil {
		return nil, unknownEngine(name)
	}
	if eng.Decides.LockFree && p.HasSync() {
		return nil, engines.SyncError(name, "a program")
	}
	if err := eng.Supports(p, opts); err != nil {
		return nil, fmt.Errorf("--engine %s: %v", eng.Name, err)
	}
	return eng, nil
}

func registered(name string) bool {
	_, err := engines.Lookup(name)
	return err == nil
}

// unknownEngine is the usage error of an --engine value that names no
// engine: it offers docs/spec.md §4's values, not the tests' engines.
func unknownEngine(name string) error {
	return fmt.Errorf("--engine %q: want auto, profile, global or brute", name)
}
