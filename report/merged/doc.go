// Package merged renders the report of many traces (docs/corpus.md;
// docs/spec.md §5, "Several traces"): a corpus.Summary, from one run over
// the traces, from conc merge, or from the Beam pipeline, as text or
// JSON. It reads nothing but the summary, so the same summary gives the
// same bytes wherever it was made.
package merged
