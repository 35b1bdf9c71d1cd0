package main

import (
	"io"
	"os"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/report"
)

// decide is conc check after compiling: package check's pipeline (engine,
// limits, the witness gate, the report), the answer rendered and the
// verdict mapped to an exit code. inputs are the files p was read from,
// which --dot and --html refuse to overwrite.
func decide(e *env, f *decideFlags, p *model.Program, inputs []os.FileInfo) int {
	req := f.request()
	p, eng, err := check.Prepare(req, p)
	if err != nil {
		return e.usagef("%v", err)
	}
	outs, err := createOutputs(e, outputPaths{dot: f.dot, html: f.html}, inputs)
	if err != nil {
		return e.usagef("%v", err)
	}
	defer outs.close()
	r, verdict, err := check.Judge(req, eng, p)
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := render(reportWriter(e, f.dot, f.html), f, r); err != nil {
		return e.errorf("%v", err)
	}
	if err := outs.writePictures(r); err != nil {
		return e.usagef("%v", err)
	}
	return exitCode(verdict)
}

// unreplayable reports engine's witness that verify rejected (why).
func unreplayable(e *env, engine string, why error) int {
	return e.errorf("%v", &check.WitnessError{Engine: engine, Err: why})
}

func render(w io.Writer, f *decideFlags, r *report.Report) error {
	if f.format == "json" {
		return report.WriteJSON(w, r)
	}
	return report.WriteText(w, r, report.TextOptions{Quiet: f.quiet})
}

func exitCode(v engines.Verdict) int {
	switch v {
	case engines.Serializable:
		return exitSerializable
	case engines.Violation:
		return exitViolation
	}
	return exitUnknown
}
