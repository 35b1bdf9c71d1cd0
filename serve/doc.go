// Package serve is conc serve, the playground (docs/playground.md): a page
// where a learner edits a .conc program, with the examples preloaded, and
// sees the verdict, the witness, each thread's profiles (Definition 4) and
// why the engine was chosen, and a lab tab that sweeps a gen family through
// package bench and shows the plot with the fitted exponent.
//
// The answers are conc check's own: the server compiles nothing it then
// decides itself; cmd/conc hands it the CLI's pipeline as a Checker and an
// Explainer, so POST /api/check answers exactly conc check --format json.
// Everything (page, script, examples) is embedded in the binary.
//
// A classroom must not be able to knock it over: the body is bounded
// (MaxBody), each check has a time limit (MaxTimeout, answered unknown as
// --timeout is), checks run at most MaxChecks at a time (a semaphore; a
// request that waits longer than QueueWait is answered 503; one more slot
// is kept for small inputs, and remembered answers need none), the lab's
// sweeps are bounded in sizes and time, and the http.Server has read,
// write and idle timeouts.
package serve
