// Package sites names the predicted violations of conc predict --all
// (docs/predict.md, "Every group (--all)"): a group's signature is the
// code locations (STD's LOC) and ops of the interrupted transaction's two
// accesses, e1 where the cycle leaves it and e2 where it comes back, as
// the start of conc monitor's signature (report/trace_groups.go). An event
// without a location is named by its op and target instead, as the
// monitor does.
//
// Site is one event's part of a signature and Key a group's signature as
// data; Tracker follows the first accesses of the open transactions, so
// that a pattern whose e1 a finder knows only by its edge gets its site;
// At reads sites back from the spool by line, and Text spells a site.
//
// It is internal to predict: it imports model, profiles, trace and the
// projection layer (predict/internal/proj), and nothing else of predict.
package sites
