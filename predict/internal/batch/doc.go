// Package batch builds the witness runs of conc predict --all in batches
// (docs/predict.md, "Every group (--all)"): materialising a witness is a
// pass over the spool (most of a 10⁶-event trace for the long runs of a
// large one: 20-40 ms), so the JSON's thousand groups took a minute one
// pass each. A batch takes the next groups' plans (Run), fills all their
// runs in one pass, and verifies each as materialising it alone would
// (internal/proj/gate.go): a run is a prefix of each thread's projection,
// so every plan takes thread t's edges 0, 1, … as they come by, and one
// decoding of an event serves them all. The verifications of a batch run
// on as many cores as Go has, each with its run's Schedule (the JSON's
// run as parts of the trace). The threads' first edges are kept across
// batches (edges.go), so that a batch of planned runs reads nothing.
//
// Which groups go in a batch, from which finder's plan, and what happens
// to a run that fails the verification are the caller's (package
// predict, which plans the witnesses). It is internal to predict: it
// imports model and the projection layer (predict/internal/proj), and
// nothing else of predict.
package batch
