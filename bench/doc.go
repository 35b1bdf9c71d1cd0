// Package bench measures how conc's engines scale, the experimental side of
// the paper's complexity results: Theorem 1 (profiles: linear in the
// threads' size n, exponential only in the number of threads k), Theorem 3
// (pushdown threads, cubic in n), Theorem 4 (the product with locks:
// n^k) and the hardness results whose families gen writes (Theorems 2
// and 6).
//
// Run generates one instance of a gen family per size, decides it with
// each engine of the registry under a deadline, and records a Point: the
// verdict, the engine's state count, the time and the memory allocated.
// Fits estimates growth exponents by least squares on log-log axes (the
// slope of log time against log n is the exponent of n), leaving out times
// under TimeFloor, which measure the clock rather than the algorithm; and
// WritePlot draws the points with gonum.org/v1/plot on log-log axes, so
// that a polynomial is a straight line whose slope is its degree, each
// series with its fitted line and its exponent in a legend under the axes.
// WriteMarkdown writes a sweep for docs/complexity.md, with the command and
// the Machine that made it; scripts/lab.sh regenerates that page with it,
// and ParseTable reads its tables back for the tests that hold the page to
// the code.
package bench
