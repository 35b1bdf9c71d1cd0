package main

import (
	"os"

	"github.com/conc-dev/conc/internal/outfile"
	"github.com/conc-dev/conc/report"
)

// dotFile is --dot FILE: opened after the input and before the work starts,
// so that a bad path fails at once, and written with the report at the end
// (package outfile: never over an input, never half-written).
type dotFile struct{ f *outfile.File }

// createDOT opens path ("" for no --dot, "-" for standard output); inputs
// are the files this run reads, which it refuses to overwrite.
func createDOT(e *env, path string, inputs []os.FileInfo) (*dotFile, error) {
	if path == "" {
		return &dotFile{}, nil
	}
	f, err := outfile.Create(path, e.stdout, inputs...)
	if err != nil {
		return nil, err
	}
	return &dotFile{f}, nil
}

// write renders r into the file and puts it in place; without --dot it does
// nothing.
func (d *dotFile) write(r *report.Report) error {
	if d.f == nil {
		return nil
	}
	err := report.WriteDOT(d.f, r)
	if err == nil {
		err = d.f.Commit()
	}
	d.close()
	return err
}

// close abandons a file left unwritten (an early error return): any earlier
// file of its name is left as it was.
func (d *dotFile) close() {
	if d.f != nil {
		d.f.Discard()
		d.f = nil
	}
}
