package main

import (
	"fmt"
	"io"
	"os"

	"github.com/conc-dev/conc/internal/outfile"
	"github.com/conc-dev/conc/report"
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

// outputs are the files --dot, --html and --witness-out name, opened
// after the input so that they can refuse it and before it is read so
// that a bad path fails first. Without a violation the witness file is
// left empty.
type outputs struct {
	dot, html *renderedFile
	witness   *outfile.File
}

// outputPaths are the output flags' values ("" for not given).
type outputPaths struct{ dot, html, witness string }

// named lists the given outputs with their flags, in the flags' order.
func (p outputPaths) named() [][2]string {
	var out [][2]string
	for _, o := range [][2]string{{"--dot", p.dot}, {"--html", p.html}, {"--witness-out", p.witness}} {
		if o[1] != "" {
			out = append(out, o)
		}
	}
	return out
}

func createOutputs(e *env, paths outputPaths, inputs []os.FileInfo) (*outputs, error) {
	if err := outfile.Distinct(paths.named()); err != nil {
		return nil, err
	}
	o := &outputs{dot: &renderedFile{}, html: &renderedFile{}}
	dot, err := createRendered(e, paths.dot, report.WriteDOT, inputs)
	if err != nil {
		return nil, fmt.Errorf("--dot: %w", err)
	}
	o.dot = dot
	html, err := createRendered(e, paths.html, writeHTML, inputs)
	if err != nil {
		o.close()
		return nil, fmt.Errorf("--html: %w", err)
	}
	o.html = html
	if paths.witness != "" {
		if o.witness, err = outfile.Create(paths.witness, e.stdout, inputs...); err != nil {
			o.close()
			return nil, fmt.Errorf("--witness-out: %w", err)
		}
	}
	return o, nil
}

// writePictures writes --dot and --html (each a no-op when not given).
func (o *outputs) writePictures(r *report.Report) error {
	if err := o.dot.write(r); err != nil {
		return fmt.Errorf("--dot: %w", err)
	}
	if err := o.html.write(r); err != nil {
		return fmt.Errorf("--html: %w", err)
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
	o.html.close()
	if o.witness != nil {
		o.witness.Discard()
		o.witness = nil
	}
}
