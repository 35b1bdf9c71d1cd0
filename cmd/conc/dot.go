package main

import (
	"io"
	"os"

	"github.com/conc-dev/conc/internal/outfile"
	"github.com/conc-dev/conc/report"
)

// renderedFile is an output the report is rendered into (--dot, --html):
// opened after the input and before the work starts, so that a bad path
// fails at once, and written with the report at the end (package outfile:
// never over an input, never half-written).
type renderedFile struct {
	f      *outfile.File
	render func(io.Writer, *report.Report) error
}

// createRendered opens path ("" for none, "-" for standard output); inputs
// are the files this run reads, which it refuses to overwrite.
func createRendered(e *env, path string, render func(io.Writer, *report.Report) error, inputs []os.FileInfo) (*renderedFile, error) {
	if path == "" {
		return &renderedFile{}, nil
	}
	f, err := outfile.Create(path, e.stdout, inputs...)
	if err != nil {
		return nil, err
	}
	return &renderedFile{f, render}, nil
}

// write renders r into the file and puts it in place; without the flag it
// does nothing.
func (d *renderedFile) write(r *report.Report) error {
	if d.f == nil {
		return nil
	}
	err := d.render(d.f, r)
	if err == nil {
		err = d.f.Commit()
	}
	d.close()
	return err
}

// close abandons a file left unwritten (an early error return): any earlier
// file of its name is left as it was.
func (d *renderedFile) close() {
	if d.f != nil {
		d.f.Discard()
		d.f = nil
	}
}
