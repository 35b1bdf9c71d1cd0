// Package progress is --progress: a line on standard error that shows how
// far the reading of a trace has come (events, their rate, bytes of the
// file's size, time so far), overwritten in place, and the flag that turns
// it on. It reads only counters the reader publishes atomically, so it
// costs the reader nothing per event.
package progress

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Mode is --progress: on by default when standard error is a terminal (a
// person is watching), off when it is a file or a pipe.
type Mode struct{ set, on bool }

func (p *Mode) String() string {
	if !p.set {
		return "auto"
	}
	return strconv.FormatBool(p.on)
}

// Set reads the flag's value.
func (p *Mode) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	p.set, p.on = true, b
	return nil
}

// IsBoolFlag lets "--progress" stand alone, like a bool flag.
func (p *Mode) IsBoolFlag() bool { return true }

// Enabled reports whether the line is shown on stderr: as the flag says,
// else when stderr is a terminal.
func (p *Mode) Enabled(stderr io.Writer) bool {
	if p.set {
		return p.on
	}
	f, ok := stderr.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// CountingReader counts the bytes the trace reader has taken from its
// source, so a progress line can be printed from another goroutine without
// touching the reader's state. (Compressed input counts compressed bytes,
// which is what the file size is measured in.)
type CountingReader struct {
	Src io.Reader
	n   atomic.Int64
}

func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.Src.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// N is the bytes read so far.
func (c *CountingReader) N() int64 { return c.n.Load() }

// Line is the --progress display. Its counters are read from another
// goroutine than the reader's: events once per batch, bytes once per
// buffer fill.
type Line struct {
	W      io.Writer
	Events func() int64 // events read so far
	Bytes  func() int64 // bytes read so far
	Total  int64        // the file's size; 0 when unknown (standard input)
	Now    func() time.Time
	start  time.Time
	width  int // of the widest line so far, which a shorter one must cover
}

// text is the line as of now: events, events per second, bytes (and the
// share of the file when its size is known) and the time so far.
func (p *Line) text() string {
	n, b := p.Events(), p.Bytes()
	secs, rate := p.Now().Sub(p.start).Seconds(), 0.0
	if secs > 0 {
		rate = float64(n) / 1e6 / secs
	}
	of := ""
	if p.Total > 0 {
		of = fmt.Sprintf(" of %.1f MB (%.0f%%)", float64(p.Total)/1e6, 100*float64(b)/float64(p.Total))
	}
	line := fmt.Sprintf("conc: read %d events, %.2f M events/s, %.1f MB%s, %.1f s",
		n, rate, float64(b)/1e6, of, secs)
	p.width = max(p.width, len(line))
	return fmt.Sprintf("%-*s", p.width, line)
}

// Run prints the line every interval, overwriting it in place, until
// stopped; stop prints it a last time, with the final counts, and ends it.
// A second stop does nothing.
func (p *Line) Run(every time.Duration) (stop func()) {
	p.start = p.Now()
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				fmt.Fprintf(p.W, "\r%s\n", p.text())
				return
			case <-t.C:
				fmt.Fprintf(p.W, "\r%s", p.text())
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(quit); <-finished }) }
}

// After is standard error while a progress line is shown: a write stops
// the display (its last line, with the final counts) first, so that no
// progress line is printed after a message.
type After struct {
	W    io.Writer
	Stop func() // idempotent
}

func (a After) Write(b []byte) (int, error) {
	a.Stop()
	return a.W.Write(b)
}
