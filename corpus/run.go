package corpus

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/conc-dev/conc/internal/outfile"
)

// Run checks the traces at paths (each called by its path) with jobs
// workers (at least one) and merges their summaries as they come: at
// most jobs traces are being checked at once, and a finished trace is
// only its summary. The merge is the same whatever order the workers
// finish in. A path given twice is an error (Inputs gives each once).
func Run(ctx context.Context, paths []string, jobs int, o Options) (*Summary, error) {
	todo := make(chan string)
	done := make(chan *Summary, jobs)
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Go(func() {
			for p := range todo {
				done <- CheckTrace(ctx, p, p, o)
			}
		})
	}
	go func() {
		for _, p := range paths {
			todo <- p
		}
		close(todo)
		wg.Wait()
		close(done)
	}()
	m := NewMerger()
	m.command, m.flags, m.started = o.Command(), o.Flags(), true
	var err error
	for s := range done {
		if e := m.Add(s); e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		return nil, err
	}
	return m.Summary(), nil
}

// RunFiles is a command's run over the traces args name (Inputs): Run
// with jobs workers and, when summaryOut is not "", the summary written
// there ("-": stdout) whole or not at all, never over one of the traces
// (internal/outfile).
func RunFiles(ctx context.Context, args []string, jobs int, o Options, summaryOut string, stdout io.Writer) (*Summary, error) {
	paths, err := Inputs(args)
	if err != nil {
		return nil, err
	}
	var out *outfile.File
	if summaryOut != "" {
		var inputs []os.FileInfo
		for _, p := range paths {
			if st, err := os.Stat(p); err == nil {
				inputs = append(inputs, st)
			}
		}
		if out, err = outfile.Create(summaryOut, stdout, inputs...); err != nil {
			return nil, fmt.Errorf("--summary-out: %w", err)
		}
		defer out.Discard()
	}
	s, err := Run(ctx, paths, jobs, o)
	if err == nil && out != nil {
		if err = Write(out, s); err == nil {
			err = out.Commit()
		}
	}
	return s, err
}
