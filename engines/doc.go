// Package engines is the registry of the engines that decide atomicity of
// a model.Program, and the types they share: it knows no engine. Each
// engine is a package below it that registers itself in init (Register)
// with what it decides (Decides); engines/all links them all. The
// registry, not its callers, picks the engine for --engine auto and for
// predict (Auto, Pick), and tells the test judge which answers are exact
// (Engine.DecidesProgram). The CLI, the differential tests and conc bench
// are drivers over it.
//
//   - engines/brute: enumerates lock-valid interleavings with the exact
//     conflict graph (the oracle every other engine is tested against);
//   - engines/profile: Lemma 3 / Theorem 1, per-thread profiles combined;
//   - engines/global: Theorem 4, the product of the threads, the lock
//     owners and a serializability monitor.
package engines
