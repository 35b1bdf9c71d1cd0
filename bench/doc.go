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
// Fit estimates growth exponents by least squares on log-log axes (the
// slope of log time against log n is the exponent of n), and WritePlot
// draws the points with gonum.org/v1/plot on log-log axes, one labelled
// line per engine and thread count, so that a polynomial is a straight
// line whose slope is its degree.
package bench
