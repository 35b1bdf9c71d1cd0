// Package profile is the profile engine: per-thread profiles (Definition 4,
// Lemma 4 for recursive threads) combined over normal runs (Lemmas 2-3,
// Theorems 1 and 3), for programs without locks, fork or join
// (docs/profiles.md).
package profile
