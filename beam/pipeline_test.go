package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/conc-dev/conc/corpus"
	"github.com/conc-dev/conc/report/merged"
	"github.com/conc-dev/conc/trace"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// corpusDir writes n generated traces (conc gen random --trace's
// generator), every third gzip'd, and returns the directory and their
// paths.
func corpusDir(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for k := range n {
		var b bytes.Buffer
		o := trace.GenOptions{Seed: uint64(k + 1), Events: 1500, Vars: 2}
		if _, err := trace.NewGen(o.Random(false)).WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		name, data := fmt.Sprintf("t%02d.std", k), b.Bytes()
		if k%3 == 2 {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(data)
			w.Close()
			name, data = name+".gz", z.Bytes()
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return dir, paths
}

// mergeReport is conc merge's report of the traces: each checked on its
// own into a summary file (--summary-out), the files merged
// (corpus.MergeFiles), rendered (report/merged).
func mergeReport(t *testing.T, paths []string, c Config) []byte {
	t.Helper()
	var files []string
	for i, p := range paths {
		s, err := corpus.Run(context.Background(), []string{p}, 1, c.Options)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(t.TempDir(), fmt.Sprintf("s%d.json", i))
		var b bytes.Buffer
		if err := corpus.Write(&b, s); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	s, err := corpus.MergeFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := merged.Write(&out, s, c.Format, c.Text); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// The pipeline on Beam's embedded runner writes, for a corpus of
// generated traces (plain and gzip'd), the report conc merge makes of
// the traces' summaries, byte for byte: conc monitor's and conc predict
// --all's, text and JSON; and its summary merges like conc's.
func TestPipelineIsConcMerge(t *testing.T) {
	dir, paths := corpusDir(t, 9)
	for _, c := range []Config{
		{Format: "text", Text: merged.TextOptions{MaxGroups: 5}},
		{Format: "json"},
		{Options: corpus.Options{Predict: true}, Format: "text"},
		{Options: corpus.Options{Predict: true, LockEdges: true}, Format: "json"},
	} {
		c.Input = filepath.Join(dir, "t*")
		c.Report = filepath.Join(t.TempDir(), "report")
		c.SummaryTo = filepath.Join(t.TempDir(), "summary.json")
		p, s := beam.NewPipelineWithRoot()
		Build(s, c)
		if err := ptest.Run(p); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(c.Report)
		if err != nil {
			t.Fatal(err)
		}
		want := mergeReport(t, paths, c)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s %s: the pipeline's report differs from conc merge's:\n%s\nwant:\n%s", c.Options.Command(), c.Format, got, want)
		}
		if !bytes.Contains(got, []byte("violation")) || !bytes.Contains(got, []byte("groups")) {
			t.Fatalf("a report of violations, with groups:\n%s", got)
		}
		sum, err := corpus.MergeFiles([]string{c.SummaryTo})
		if err != nil {
			t.Fatal(err)
		}
		if len(sum.Traces) != len(paths) || sum.Traces[8].Name != paths[8] || sum.Traces[8].Verdict == "error" {
			t.Fatalf("the pipeline's summary has %d traces (want %d), the gzip'd t08 checked: %+v", len(sum.Traces), len(paths), sum.Traces)
		}
	}
}
