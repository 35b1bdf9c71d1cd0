package main

import (
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
)

// specEngines are the values SPEC §4 gives --engine besides auto.
var specEngines = []string{"profile", "global", "brute"}

// chooseEngine resolves --engine for p, the program as it will be checked
// (after --ignore-sync has dropped its lock, fork and join events).
//
// auto follows the paper: profile (Lemma 3 / Theorem 1, per-thread profiles)
// decides programs without synchronisation, and global (Theorem 4, the
// product with lock owners) those with locks, fork or join. While an engine
// of SPEC §4 is not registered yet, brute (exact interleaving enumeration,
// unknown past its depth bound) stands in for it; the report's engine field
// then says brute, and an explicit choice is told so on stderr.
//
// Asking for profile on a program with synchronisation is a usage error that
// names the flags, even when brute would stand in, so the CLI's contract does
// not depend on which engines exist yet.
func chooseEngine(e *env, name string, p *model.Program) (*engines.Engine, error) {
	explicit := name != "auto"
	if !explicit {
		name = "profile"
		if p.HasSync() {
			name = "global"
		}
	} else if !isSpecEngine(name) && !isRegistered(name) {
		return nil, fmt.Errorf("--engine %q: want auto, profile, global or brute", name)
	} else if name == "profile" && p.HasSync() {
		return nil, fmt.Errorf("--engine profile cannot decide a program with locks, fork or join: " +
			"use --engine global (or auto), or --ignore-sync for the optimistic answer")
	}
	eng, err := engines.Lookup(name)
	if err == nil {
		return eng, nil
	}
	fallback, ferr := engines.Lookup("brute")
	if ferr != nil {
		return nil, fmt.Errorf("no engine available for --engine %s (have %v)", name, engines.Names())
	}
	if explicit {
		fmt.Fprintf(e.stderr, "conc: engine %s is not available yet; using brute\n", name)
	}
	return fallback, nil
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
