package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/conc-dev/conc/internal/outfile"
)

// inputFiles are the files a run reads, for the outputs to refuse (package
// outfile): the named file, or standard input when it is redirected from a
// file ("conc predict - --dot t.std < t.std").
func inputFiles(e *env, path string) []os.FileInfo {
	var st os.FileInfo
	var err error
	if path == "-" {
		f, ok := e.stdin.(*os.File)
		if !ok {
			return nil
		}
		st, err = f.Stat()
	} else {
		st, err = os.Stat(path)
	}
	if err != nil {
		return nil
	}
	return []os.FileInfo{st}
}

// reportWriter is where the report goes: standard output, unless an output
// file is "-" and takes standard output for itself (so that "--dot - | dot
// -Tsvg" works); the report then goes to standard error.
func reportWriter(e *env, outputs ...string) io.Writer {
	for _, o := range outputs {
		if o == outfile.Stdout {
			return e.stderr
		}
	}
	return e.stdout
}

// outputs are the files --dot and --witness-out name, opened after the
// trace so that they can refuse it and before it is read so that a bad
// path fails first. Without a violation the witness file is left empty.
type outputs struct {
	dot     *dotFile
	witness *outfile.File
}

// errSameOutput: two outputs of one run cannot share a file.
var errSameOutput = errors.New("--dot and --witness-out name the same file")

// errBothStdout: standard output can carry one output file.
var errBothStdout = errors.New("--dot - and --witness-out -: only one output can go to standard output")

func createOutputs(e *env, dot, witness string, inputs []os.FileInfo) (*outputs, error) {
	if err := distinctOutputs(dot, witness); err != nil {
		return nil, err
	}
	d, err := createDOT(e, dot, inputs)
	if err != nil {
		return nil, fmt.Errorf("--dot: %w", err)
	}
	o := &outputs{dot: d}
	if witness != "" {
		if o.witness, err = outfile.Create(witness, e.stdout, inputs...); err != nil {
			o.close()
			return nil, fmt.Errorf("--witness-out: %w", err)
		}
	}
	return o, nil
}

// distinctOutputs checks that --dot and --witness-out do not name one file.
func distinctOutputs(dot, witness string) error {
	switch {
	case dot == "" || witness == "":
		return nil
	case dot == outfile.Stdout && witness == outfile.Stdout:
		return errBothStdout
	case dot == outfile.Stdout || witness == outfile.Stdout:
		return nil
	case filepath.Clean(dot) == filepath.Clean(witness):
		return errSameOutput
	}
	a, aerr := os.Stat(dot)
	b, berr := os.Stat(witness)
	if aerr == nil && berr == nil && os.SameFile(a, b) {
		return errSameOutput
	}
	return nil
}

// commitWitness puts the witness file in place once it is written.
func (o *outputs) commitWitness() error {
	if o.witness == nil {
		return nil
	}
	err := o.witness.Commit()
	o.witness = nil
	return err
}

// close abandons what is not yet in place (an early error return).
func (o *outputs) close() {
	o.dot.close()
	if o.witness != nil {
		o.witness.Discard()
		o.witness = nil
	}
}
