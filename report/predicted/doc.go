// Package predicted turns package predict's answers into reports: the one
// witness of conc predict (Report: package report's Report, with the
// witness's STD event count and the transactions its run breaks by
// itself), and every group of conc predict --all (WriteAllText,
// WriteAllJSON; docs/spec.md §5), each group's witness built, written and
// let go before the next, so that a thousand witnesses of 10⁵ events
// never sit in memory together.
//
// It is report's driver for traces: report reads no trace and knows
// neither predict nor the trace monitors (docs/design.md, "What may
// import what"), so what needs them (predict's outcome, the atomicity
// tracker that names the broken transactions) is here, and the rendering
// itself is report's.
package predicted
