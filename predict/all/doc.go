// Package all is `conc predict --all` (docs/predict.md, "Every group
// (--all)"): instead of the first violation, every group of predicted
// violations, a group being the patterns whose interrupted transaction's
// two accesses have the same code locations. It runs over predict's
// projection (predict.Project) and lends its pieces: predict's own
// decision, the chain search under predict's budgets, the finders' runs
// and the gate every witness passes.
//
// The finders go on after each hit (finders.go) and keep per group its
// count and one pattern per finder (collect.go); a group's witness is
// built only when asked for (Outcome.Witness), with the next groups' in a
// batch (batch.go, locate.go), and verified like predict's single answer
// (predict/internal/proj/gate.go): one that fails drops the group,
// counted, and is never shown. Outcome is the answer (outcome.go);
// witnesses builds its witnesses, planning each from its finders'
// patterns (witness.go). A witness's run is also given as a Schedule of
// the trace (schedule.go), which the JSON reports.
package all
