package main

import (
	"io"

	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/report/html"
)

// htmlHelp is --html's usage (docs/spec.md §4).
const htmlHelp = "write the witness (monitor: the groups' example cycles) as a self-contained HTML page with a timeline to `FILE` " + dashHelp

// writeHTML renders --html's page (package report/html).
func writeHTML(w io.Writer, r *report.Report) error { return html.Write(w, r, html.Options{}) }
