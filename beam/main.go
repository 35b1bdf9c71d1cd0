// Command conc-beam checks a corpus of traces as conc monitor or conc
// predict --all does over several traces (docs/corpus.md), as an Apache
// Beam pipeline: on Beam's embedded runner (prism) by default, or on a
// Flink, Spark or Dataflow cluster (--runner). It writes the report conc
// writes for the same traces, byte for byte.
//
//	go run . --input '/data/traces/*.std.gz' --output /tmp/report.txt
package main

import (
	"context"
	"flag"
	"log"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

var (
	input      = flag.String("input", "", "the traces: a file pattern (`GLOB`, e.g. '/data/traces/*.std.gz' or 'gs://bucket/traces/*')")
	output     = flag.String("output", "", "write the report to `FILE`")
	summaryOut = flag.String("summary_out", "", "also write the merged summary, which conc merge reads, to `FILE`")
	predictAll = flag.Bool("predict", false, "conc predict --all instead of conc monitor")
	lockEdges  = flag.Bool("lock_edges", false, "--lock-edges: release→acquire and fork/join also conflict")
	lenient    = flag.Bool("lenient", false, "--lenient: skip and count bad trace lines")
	cycles     = flag.Bool("cycles", false, "monitor --cycles: every transaction on a cycle, grouped")
	timeout    = flag.Duration("timeout", 0, "each trace's --timeout (0: the command's default)")
	format     = flag.String("format", "text", "the report's `format`: text or json")
	maxGroups  = flag.Int("max_groups", 20, "list at most `N` groups in the text report (0: all)")
	quiet      = flag.Bool("quiet", false, "leave out the summary line of the text report")
)

func main() {
	flag.Parse()
	beam.Init()
	if *input == "" || *output == "" {
		log.Fatal("conc-beam: --input and --output are required")
	}
	c := configFromFlags()
	p, s := beam.NewPipelineWithRoot()
	Build(s, c)
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatalf("conc-beam: %v", err)
	}
}

// configFromFlags is the pipeline the flags ask for.
func configFromFlags() Config {
	c := Config{Input: *input, Report: *output, SummaryTo: *summaryOut, Format: *format}
	c.Options.Predict, c.Options.LockEdges, c.Options.Lenient, c.Options.Cycles = *predictAll, *lockEdges, *lenient, *cycles
	c.Options.Timeout = time.Duration(*timeout)
	c.Text.MaxGroups, c.Text.Quiet = *maxGroups, *quiet
	return c
}
