package main

import (
	"fmt"
	"os"
	"time"

	"github.com/conc-dev/conc/internal/progress"
	"github.com/conc-dev/conc/trace"
)

// openTrace opens path ("-": the command's standard input) for the trace
// reader. With progress on, a line on standard error shows the events read,
// their rate, the bytes read (of the file's size, when known) and the time
// so far; done stops it and closes the file.
func openTrace(e *env, path string, opts trace.Options, showProgress bool) (r *trace.Reader, done func(), err error) {
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
	counter := &progress.CountingReader{Src: src}
	if r, err = trace.NewReader(counter, name, opts); err != nil {
		if file != nil {
			file.Close()
		}
		return nil, nil, err
	}
	stop := func() {}
	if showProgress {
		p := &progress.Line{W: e.stderr, Events: r.EventsRead, Bytes: counter.N, Total: total, Now: time.Now}
		stop = p.Run(500 * time.Millisecond)
		// Anything else written to standard error (an error in the trace,
		// --lenient's count) ends the progress line first, so that no
		// progress line is printed after the message.
		e.stderr = progress.After{W: e.stderr, Stop: stop}
	}
	return r, func() {
		stop()
		r.Close()
		if file != nil {
			file.Close()
		}
	}, nil
}

// progressHelp is --progress's help, the same for monitor and predict.
const progressHelp = "show events read, rate, bytes read and elapsed time on standard error (default: when it is a terminal)"
