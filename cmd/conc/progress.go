package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conc-dev/conc/trace"
)

// progressMode is --progress: on by default when standard error is a
// terminal (a person is watching), off when it is a file or a pipe.
type progressMode struct{ set, on bool }

func (p *progressMode) String() string {
	if !p.set {
		return "auto"
	}
	return strconv.FormatBool(p.on)
}

func (p *progressMode) Set(s string) error {
	b, err := strconv.ParseBool(s)
	p.set, p.on = true, b
	return err
}

// IsBoolFlag lets "--progress" stand alone, like a bool flag.
func (p *progressMode) IsBoolFlag() bool { return true }

func (p *progressMode) enabled(e *env) bool {
	if p.set {
		return p.on
	}
	f, ok := e.stderr.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// countingReader counts the bytes the trace reader has taken from its
// source, so a progress line can be printed from another goroutine without
// touching the reader's state. (Compressed input counts compressed bytes,
// which is what the file size is measured in.)
type countingReader struct {
	src io.Reader
	n   atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.src.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// openTrace opens path ("-": the command's standard input) for the trace
// reader. With progress on, a line on standard error shows how much has
// been read, the rate and the time so far; done stops it and closes the file.
func openTrace(e *env, path string, opts trace.Options, progress bool) (r *trace.Reader, done func(), err error) {
	src, name, total := e.stdin, "<stdin>", int64(0)
	var file *os.File
	if path != "-" {
		if file, err = os.Open(path); err != nil {
			return nil, nil, fmt.Errorf("cannot read %s: %v", path, err)
		}
		if st, err := file.Stat(); err == nil {
			total = st.Size()
		}
		src, name = file, path
	}
	counter := &countingReader{src: src}
	if r, err = trace.NewReader(counter, name, opts); err != nil {
		if file != nil {
			file.Close()
		}
		return nil, nil, err
	}
	stop := func() {}
	if progress {
		stop = showProgress(e.stderr, counter, total)
	}
	return r, func() {
		stop()
		r.Close()
		if file != nil {
			file.Close()
		}
	}, nil
}

// showProgress prints the progress line twice a second until stopped.
func showProgress(w io.Writer, c *countingReader, total int64) (stop func()) {
	start := time.Now()
	quit, finished := make(chan struct{}), make(chan struct{})
	line := func() {
		n, secs := c.n.Load(), time.Since(start).Seconds()
		of := ""
		if total > 0 {
			of = fmt.Sprintf(" of %.1f MB (%.0f%%)", float64(total)/1e6, 100*float64(n)/float64(total))
		}
		fmt.Fprintf(w, "\rconc: read %.1f MB%s, %.0f MB/s, %.1f s", float64(n)/1e6, of, float64(n)/1e6/max(secs, 1e-9), secs)
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-quit:
				line()
				fmt.Fprintln(w)
				return
			case <-t.C:
				line()
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(quit); <-finished }) }
}
