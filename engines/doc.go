// Package engines decides atomicity of a model.Program. Every engine has the
// same shape (an Engine in the registry): the CLI, the differential tests and
// conc bench are drivers over that registry.
//
//   - brute: enumerates lock-valid interleavings with the exact conflict
//     graph (the oracle every other engine is tested against);
//   - profile: Lemma 3 / Theorem 1, per-thread profiles combined;
//   - global: Theorem 4, the product of the threads, the lock owners and a
//     serializability monitor.
package engines
