package main

import (
	"os"

	"github.com/conc-dev/conc/report"
)

// dotFile is --dot FILE: created before the work starts, so that a bad
// path fails at once, and written with the report at the end.
type dotFile struct{ f *os.File }

// createDOT creates path ("" for no --dot).
func createDOT(path string) (*dotFile, error) {
	if path == "" {
		return &dotFile{}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &dotFile{f}, nil
}

// write renders r into the file and closes it; without --dot it does nothing.
func (d *dotFile) write(r *report.Report) error {
	if d.f == nil {
		return nil
	}
	err := report.WriteDOT(d.f, r)
	if cerr := d.f.Close(); err == nil {
		err = cerr
	}
	d.f = nil
	return err
}

// close closes a file left unwritten (an early error return).
func (d *dotFile) close() {
	if d.f != nil {
		d.f.Close()
	}
}
