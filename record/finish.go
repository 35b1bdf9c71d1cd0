package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
)

// CutLine is the last line of a trace whose test binary died before it
// closed the trace (a panic, os.Exit outside the recorder, a -timeout
// kill): docs/record.md. The events before it are those the binary had
// flushed, each line whole.
const CutLine = "*|cut|the test binary stopped before closing its trace"

// Stats describe a finished trace.
type Stats struct {
	Events  int  // event lines (the cut line not counted)
	Threads int  // distinct threads
	Cut     bool // the trace ends with CutLine
}

// finishTrace reads the trace the test binary wrote; when its gzip
// stream is not closed (the binary died), it rewrites it as the whole
// lines it holds followed by CutLine.
func finishTrace(path string) (Stats, error) {
	data, complete, err := readGzip(path)
	if err != nil {
		return Stats{}, err
	}
	if !complete {
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		} else {
			data = nil
		}
		if err := writeGzip(path, append(data, CutLine+"\n"...)); err != nil {
			return Stats{}, err
		}
	}
	st := count(data)
	st.Cut = !complete
	return st, nil
}

// readGzip inflates what it can of path: complete is false when the
// stream ends early or is damaged.
func readGzip(path string) ([]byte, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil { // not even a header: the binary died at once
		return nil, false, nil
	}
	var buf bytes.Buffer
	_, err = io.Copy(&buf, zr)
	return buf.Bytes(), err == nil, nil
}

func writeGzip(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// count counts the events and threads of STD text.
func count(data []byte) Stats {
	threads := map[string]bool{}
	st := Stats{}
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		st.Events++
		if i := bytes.IndexByte(line, '|'); i > 0 {
			threads[string(line[:i])] = true
		}
	}
	st.Threads = len(threads)
	return st
}

// Summary is conc record's line for one test binary: the trace, its
// events and threads, whether it is cut, and what was not instrumented.
func Summary(r Result) string {
	if r.Trace == "" {
		return r.Target.Path + ": no trace (the test binary did not run)"
	}
	s := fmt.Sprintf("%s: %d events, %d threads", r.Trace, r.Stats.Events, r.Stats.Threads)
	if r.Stats.Cut {
		s += ", cut (the test binary died)"
	}
	if len(r.Target.Skipped) > 0 {
		s += "; not instrumented: " + r.Target.Skipped.String()
	}
	return s
}
