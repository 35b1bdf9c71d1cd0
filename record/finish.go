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

// finishTrace reads the trace the test binary wrote, streaming (a trace
// may be larger than memory); when its gzip stream is not closed (the
// binary died), it rewrites it as the whole lines it holds followed by
// CutLine, through a file beside it that then takes its place.
func finishTrace(path string) (Stats, error) {
	st, complete, err := scanTrace(path, nil)
	if err != nil || complete {
		return st, err
	}
	tmp := path + ".cut"
	f, err := os.Create(tmp)
	if err != nil {
		return Stats{}, err
	}
	zw := gzip.NewWriter(f)
	if _, _, err = scanTrace(path, zw); err == nil {
		_, err = io.WriteString(zw, CutLine+"\n")
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return Stats{}, err
	}
	st.Cut = true
	return st, nil
}

// scanTrace inflates what it can of path, line by line, counting the
// events and threads and copying each whole line to w (nil: none):
// complete is false when the stream ends early or is damaged, and then
// a last line without its end is left out.
func scanTrace(path string, w io.Writer) (st Stats, complete bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return Stats{}, false, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil { // not even a header: the binary died at once
		return Stats{}, false, nil
	}
	threads := map[string]bool{}
	br := bufio.NewReaderSize(zr, 1<<16)
	var line []byte
	for {
		chunk, rerr := br.ReadSlice('\n')
		line = append(line, chunk...)
		if rerr == bufio.ErrBufferFull {
			continue
		}
		whole := len(line) > 0 && line[len(line)-1] == '\n'
		if whole || rerr == io.EOF && len(line) > 0 {
			countLine(line, &st, threads)
			if w != nil && whole {
				if _, err := w.Write(line); err != nil {
					return st, false, err
				}
			}
		}
		line = line[:0]
		if rerr != nil {
			st.Threads = len(threads)
			return st, rerr == io.EOF, nil
		}
	}
}

// countLine counts one line of STD text (with or without its end).
func countLine(line []byte, st *Stats, threads map[string]bool) {
	line = bytes.TrimRight(line, "\n")
	if len(line) == 0 {
		return
	}
	st.Events++
	if i := bytes.IndexByte(line, '|'); i > 0 && !threads[string(line[:i])] {
		threads[string(line[:i])] = true
	}
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
