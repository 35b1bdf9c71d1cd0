package main

import (
	"errors"
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
	if err != nil {
		return errors.New("want true or false")
	}
	p.set, p.on = true, b
	return nil
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
// reader. With progress on, a line on standard error shows the events read,
// their rate, the bytes read (of the file's size, when known) and the time
// so far; done stops it and closes the file.
func openTrace(e *env, path string, opts trace.Options, progress bool) (r *trace.Reader, done func(), err error) {
	src, name, total := e.stdin, "<stdin>", int64(0)
	var file *os.File
	if path != "-" {
		if file, err = os.Open(path); err != nil {
			return nil, nil, cannotRead(err)
		}
		st, err := file.Stat()
		switch {
		case err == nil && st.IsDir():
			file.Close()
			return nil, nil, fmt.Errorf("cannot read %s: is a directory", path)
		case err == nil && st.Mode().IsRegular():
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
		p := &progressLine{w: e.stderr, events: r.EventsRead, bytes: counter.n.Load, total: total, now: time.Now}
		stop = p.run(500 * time.Millisecond)
		// Anything else written to standard error (an error in the trace,
		// --lenient's count) ends the progress line first, so that no
		// progress line is printed after the message.
		e.stderr = afterProgress{w: e.stderr, stop: stop}
	}
	return r, func() {
		stop()
		r.Close()
		if file != nil {
			file.Close()
		}
	}, nil
}

// progressLine is the --progress display. It only reads counters that the
// trace reader publishes atomically (events once per batch, bytes once per
// buffer fill), so it costs the reader nothing per event.
type progressLine struct {
	w      io.Writer
	events func() int64 // events read so far
	bytes  func() int64 // bytes read so far
	total  int64        // the file's size; 0 when unknown (standard input)
	now    func() time.Time
	start  time.Time
	width  int // of the widest line so far, which a shorter one must cover
}

// text is the line as of now: events, events per second, bytes (and the
// share of the file when its size is known) and the time so far.
func (p *progressLine) text() string {
	n, b := p.events(), p.bytes()
	secs, rate := p.now().Sub(p.start).Seconds(), 0.0
	if secs > 0 {
		rate = float64(n) / 1e6 / secs
	}
	of := ""
	if p.total > 0 {
		of = fmt.Sprintf(" of %.1f MB (%.0f%%)", float64(p.total)/1e6, 100*float64(b)/float64(p.total))
	}
	line := fmt.Sprintf("conc: read %d events, %.2f M events/s, %.1f MB%s, %.1f s",
		n, rate, float64(b)/1e6, of, secs)
	p.width = max(p.width, len(line))
	return fmt.Sprintf("%-*s", p.width, line)
}

// run prints the line every interval, overwriting it in place, until
// stopped; stop prints it a last time, with the final counts, and ends it.
func (p *progressLine) run(every time.Duration) (stop func()) {
	p.start = p.now()
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				fmt.Fprintf(p.w, "\r%s\n", p.text())
				return
			case <-t.C:
				fmt.Fprintf(p.w, "\r%s", p.text())
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(quit); <-finished }) }
}

// afterProgress is standard error while a progress line is shown: a
// write stops the display (its last line, with the final counts) first.
type afterProgress struct {
	w    io.Writer
	stop func() // idempotent
}

func (a afterProgress) Write(b []byte) (int, error) {
	a.stop()
	return a.w.Write(b)
}

// progressHelp is --progress's help, the same for monitor and predict.
const progressHelp = "show events read, rate, bytes read and elapsed time on standard error (default: when it is a terminal)"
