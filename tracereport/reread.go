package tracereport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// secondReading is where the trace can be read again for the sites of the
// cycles' events: its path ("-": standard input), and where to say why it
// could not be.
type secondReading struct {
	path  string
	notes io.Writer
}

// SecondReadingError is an error of reading the trace a second time for
// the sites of its cycles' events, after the monitor read it whole: the
// trace was good, the file went bad or away in between.
type SecondReadingError struct{ Err error }

func (e *SecondReadingError) Error() string { return e.Err.Error() }
func (e *SecondReadingError) Unwrap() error { return e.Err }

// sites reads the trace again for the sites of lines (none when no line
// is needed). Standard input, or a pipe (`<(cmd)`), cannot be read again;
// if ctx ends first (--timeout, --max-memory), the lines not reached are
// not read: either way their events are shown by line only, and a note
// says why (a trace read once is not kept: it may be larger than memory
// or disk).
func (a secondReading) sites(ctx context.Context, lines *lineSet) (*siteTable, error) {
	if lines.last == 0 {
		return nil, nil
	}
	// Stat, not open, first: opening a pipe whose writer is gone would wait
	// for another forever.
	if st, err := os.Stat(a.path); a.path == "-" || err != nil || !st.Mode().IsRegular() {
		fmt.Fprintln(a.notes, "monitor: a trace on standard input or a pipe is read once: the cycles' events are named by line only, and grouped by the shape of their cycles (give the trace as a file to see their ops, variables and code locations)")
		return nil, nil
	}
	f, err := os.Open(a.path)
	if err != nil {
		return nil, cannotRead(err)
	}
	defer f.Close()
	sites, err := resolveSites(ctx, f, a.path, lines)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(a.notes, "monitor: %v: the cycles' events are shown by line only\n", err)
		err = nil
	}
	return sites, err
}

// cannotRead words an error of opening a file as the command's other
// input errors are: "cannot read PATH: why".
func cannotRead(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot read %s: %v", pe.Path, pe.Err)
	}
	return err
}
