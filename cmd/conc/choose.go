package main

import (
	"fmt"
	"strings"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// specEngines are the values docs/spec.md §4 gives --engine besides auto.
var specEngines = []string{"profile", "global", "brute"}

// chooseEngine resolves --engine for p, the program as it will be checked
// (after --ignore-sync has dropped its lock, fork and join events), and checks
// that the engine supports p under opts.
//
// auto follows the paper: profile (Lemma 3 / Theorem 1, per-thread profiles)
// decides programs without synchronisation, and global (Theorem 4, the
// product with lock owners) those with locks, fork or join. When the
// preferred engine is not registered, or does not support p (profile and
// recursive threads), auto takes the next of profile, global, brute; brute
// is exact enumeration, unknown past its depth bound. The report's engine
// field says which engine answered.
//
// An explicit --engine is taken as asked. Asking for profile on a program
// with synchronisation is a usage error that names the flags, whatever
// engines exist, so the CLI's contract does not depend on them; an explicit
// engine of docs/spec.md §4 that is not registered yet falls back to brute, with a
// note on stderr.
func chooseEngine(e *env, name string, p *model.Program, opts engines.Options) (*engines.Engine, error) {
	if name == "auto" {
		return autoEngine(p, opts)
	}
	if !isSpecEngine(name) && !isRegistered(name) {
		return nil, fmt.Errorf("--engine %q: want auto, profile, global or brute", name)
	}
	if name == "profile" && p.HasSync() {
		return nil, fmt.Errorf("--engine profile cannot decide a program with locks, fork or join: " +
			"use --engine global (or auto), or --ignore-sync for the optimistic answer")
	}
	eng, err := engines.Lookup(name)
	if err != nil {
		if eng, err = engines.Lookup("brute"); err != nil {
			return nil, fmt.Errorf("no engine available for --engine %s (have %s)", name, strings.Join(engines.Names(), ", "))
		}
		fmt.Fprintf(e.stderr, "conc: engine %s is not available yet; using brute\n", name)
	}
	if err := eng.Supports(p, opts); err != nil {
		return nil, fmt.Errorf("--engine %s: %v", eng.Name, err)
	}
	return eng, nil
}

// autoEngine is --engine auto: the first registered engine, in the paper's
// order of preference for p, that supports p.
func autoEngine(p *model.Program, opts engines.Options) (*engines.Engine, error) {
	prefs := specEngines // profile, global, brute
	if p.HasSync() {
		prefs = prefs[1:]
	}
	var last error
	for _, name := range prefs {
		eng, err := engines.Lookup(name)
		if err != nil {
			continue
		}
		if last = eng.Supports(p, opts); last == nil {
			return eng, nil
		}
	}
	if last == nil {
		return nil, fmt.Errorf("no engine available (have %s)", strings.Join(engines.Names(), ", "))
	}
	return nil, fmt.Errorf("no engine supports this program: %v", last)
}

func isSpecEngine(name string) bool {
	for _, n := range specEngines {
		if n == name {
			return true
		}
	}
	return false
}

func isRegistered(name string) bool {
	_, err := engines.Lookup(name)
	return err == nil
}

// engineWhy says, in a sentence for a learner (conc serve's playground),
// why asked (--engine) became eng for p: above all why a program with
// locks, fork or join needs the global engine's product.
func engineWhy(asked string, p *model.Program, eng *engines.Engine, opts engines.Options) string {
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
