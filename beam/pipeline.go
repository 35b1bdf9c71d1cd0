package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/conc-dev/conc/corpus"
	"github.com/conc-dev/conc/report/merged"
)

// The pipeline: the traces a file pattern matches, each mapped through
// corpus.CheckTrace (the call conc monitor and conc predict --all make
// for every trace of a corpus: no second implementation), the summaries
// combined with corpus's merge (associative and commutative, so the
// runner may combine in any tree), and the merged summary rendered by
// report/merged, the renderer of conc's own report.

func init() {
	register.DoFn2x2[context.Context, fileio.FileMetadata, []byte, error](&checkFn{})
	register.Combiner3[acc, []byte, []byte](&mergeFn{})
	beam.RegisterCoder(reflect.TypeOf(acc{}), encodeAcc, decodeAcc)
	register.DoFn2x1[context.Context, []byte, error](&writeFn{})
}

// Config is what the pipeline does: the traces (a file pattern, any
// filesystem Beam knows), the command's options, and where the report
// (and, if not "", the summary) go.
type Config struct {
	Input     string
	Options   corpus.Options
	Format    string
	Text      merged.TextOptions
	Report    string
	SummaryTo string
}

// Build adds the pipeline to s.
func Build(s beam.Scope, c Config) {
	files := fileio.MatchFiles(s, c.Input)
	summaries := beam.ParDo(s, &checkFn{Options: c.Options}, files)
	all := beam.Combine(s, &mergeFn{}, summaries)
	beam.ParDo0(s, &writeFn{Config: c}, all)
}

// checkFn checks one trace: its summary file's bytes.
type checkFn struct {
	Options corpus.Options
}

func (f *checkFn) ProcessElement(ctx context.Context, m fileio.FileMetadata) ([]byte, error) {
	path, done, err := local(ctx, m.Path)
	if err != nil {
		return nil, err
	}
	defer done()
	var b bytes.Buffer
	err = corpus.Write(&b, corpus.CheckTrace(ctx, m.Path, path, f.Options))
	return b.Bytes(), err
}

// local is a local file with the trace at path: path itself on the
// local filesystem, else a temporary copy (a trace of gs://, s3://),
// named like it so that a .gz trace stays one; done removes the copy.
func local(ctx context.Context, path string) (string, func(), error) {
	if !strings.Contains(path, "://") {
		return path, func() {}, nil
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer fs.Close()
	in, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer in.Close()
	dir, err := os.MkdirTemp("", "conc-trace")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.RemoveAll(dir) }
	out, err := os.Create(filepath.Join(dir, filepath.Base(path)))
	if err == nil {
		_, err = io.Copy(out, in)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		done()
		return "", nil, err
	}
	return out.Name(), done, nil
}

// acc is the combine's accumulator: a corpus.Merger, sent between
// workers as a summary file.
type acc struct {
	m *corpus.Merger
	n int // summaries added (an empty one has no command yet)
}

func encodeAcc(a acc) ([]byte, error) {
	if a.n == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	err := corpus.Write(&b, a.m.Summary())
	return b.Bytes(), err
}

func decodeAcc(data []byte) (acc, error) {
	a := acc{m: corpus.NewMerger()}
	if len(data) == 0 {
		return a, nil
	}
	return a, a.add(data)
}

// add merges a summary file's bytes in.
func (a *acc) add(data []byte) error {
	s, err := corpus.Read(bytes.NewReader(data), "a summary")
	if err == nil {
		err = a.m.Add(s)
	}
	a.n++
	return err
}

// mergeFn is corpus's merge as a Beam combine.
type mergeFn struct{}

func (mergeFn) CreateAccumulator() acc { return acc{m: corpus.NewMerger()} }

func (mergeFn) AddInput(a acc, summary []byte) (acc, error) {
	if a.m == nil {
		a.m = corpus.NewMerger()
	}
	return a, a.add(summary)
}

func (mergeFn) MergeAccumulators(a, b acc) (acc, error) {
	if b.n == 0 {
		return a, nil
	}
	if a.m == nil {
		a.m = corpus.NewMerger()
	}
	a.n += b.n
	return a, a.m.Add(b.m.Summary())
}

func (mergeFn) ExtractOutput(a acc) ([]byte, error) { return encodeAcc(a) }

// writeFn writes the report, and the summary when asked, of the merged
// summary (one element: the combine is global).
type writeFn struct {
	Config Config
}

func (f *writeFn) ProcessElement(ctx context.Context, data []byte) error {
	s := &corpus.Summary{Command: f.Config.Options.Command(), Flags: f.Config.Options.Flags()}
	if len(data) > 0 { // no trace matched: an empty corpus
		var err error
		if s, err = corpus.Read(bytes.NewReader(data), "the merged summary"); err != nil {
			return err
		}
	}
	var report bytes.Buffer
	if err := merged.Write(&report, s, f.Config.Format, f.Config.Text); err != nil {
		return err
	}
	if err := writeFile(ctx, f.Config.Report, report.Bytes()); err != nil {
		return err
	}
	if f.Config.SummaryTo == "" {
		return nil
	}
	var b bytes.Buffer
	if err := corpus.Write(&b, s); err != nil {
		return err
	}
	return writeFile(ctx, f.Config.SummaryTo, b.Bytes())
}

// writeFile writes data to path on its filesystem.
func writeFile(ctx context.Context, path string, data []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	return w.Close()
}
