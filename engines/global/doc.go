// Package global is the global engine, Theorem 4's decision procedure: an
// explicit-state search of the product of the threads, the lock owners and
// a finite-state serializability monitor, with the reductions
// docs/global.md argues keep it exact.
package global
