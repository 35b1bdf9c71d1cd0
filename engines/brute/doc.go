// Package brute is the brute-force engine: it enumerates the lock-valid
// interleavings of prefixes of the threads (docs/spec.md §1) with the exact
// conflict graph, and is the oracle the other engines are tested against
// (docs/brute.md).
package brute
