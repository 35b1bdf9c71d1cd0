// Package html renders a report (package report) as one self-contained
// HTML page (docs/spec.md §5, --html): the verdict, and the witness as a
// timeline drawn in SVG by Go, with no network access and no external
// font; one small inline script (stepScript) only walks the picture event
// by event. A lane per thread, the transactions as boxes spanning
// their events, each event a mark (its op and target, its position or
// trace line in a tooltip), the conflict cycle as arrows between the
// conflicting events labelled with the variable or the kind of ordering
// edge, and in red the transaction the text report blames, in its words:
// broken by itself (monitor's default answer, predict), violating
// (monitor --cycles), interrupted (check). No arrow's label covers
// another label or a box's name. conc monitor's
// groups are listed as the text report lists them, each example cycle
// drawn the same way.
//
// For tests and tools every drawn event carries data-event="I" (its index
// in the JSON witness.run; for a group's cycle, its trace line) and every
// cycle arrow data-edge="FROM-TO" (the JSON cycle pair it draws; for a
// group, the two trace lines). A long witness (conc predict on a real
// trace) is drawn around its cycle (report.Witness.Window), and the page
// says what it left out.
//
// Write produces the page; WriteFragment the same content without the
// document around it, for a page that embeds it (with CSS in its style).
package html
