package trace

import (
	"bufio"
	"bytes"
	"context"
	"io"

	"github.com/conc-dev/conc/model"
)

// Fields are one STD line's parts as written: its thread, op, the op's
// argument (variable, lock or thread; none for begin and end) and its
// location (LOC; empty if none).
type Fields struct {
	Thread, Target, Loc []byte
	Op                  model.Op
}

// LinesAt reads the trace src again and hands found the fields of the
// lines next names (numbered as Event.Line): next(0) is the first, and
// next(l) the one after l, 0 for none. It parses no other line, only finds
// its end, by blocks where no wanted line lies: a cheap second reading of
// a trace a Reader has already read and checked, for what a report says
// of some of its events (conc monitor's cycles), where a Reader's full
// parse, interning every name, cost as much again as the check. A line
// that is not an event line (blank, or one a lenient Reader skipped) is
// not handed over; nor, since no line is checked against the ones before
// it, should one be asked for that the Reader made no event of (an inner
// begin or end, a re-entrant acq or rel). Gzip input is inflated as
// NewReader does (a name ending in ".gz", or gzip's magic bytes), and a
// truncated or corrupt stream is an error. Once ctx ends it stops, within one buffer, and returns context.Cause(ctx).
func LinesAt(ctx context.Context, src io.Reader, name string, next func(after int64) int64, found func(line int64, f Fields)) error {
	return linesAt(ctx, src, name, next, found, 1<<20)
}

// linesAt is LinesAt with a first buffer of size bytes (tests cut lines
// with small ones).
func linesAt(ctx context.Context, src io.Reader, name string, next func(int64) int64, found func(int64, Fields), size int) error {
	br := bufio.NewReaderSize(src, 64<<10)
	if magic, _ := br.Peek(2); gzipped(name, magic) {
		zr, err := newInflater(br)
		if err != nil {
			return err
		}
		src = zr
	} else {
		src = br
	}
	s := lineScanner{src: src, buf: make([]byte, size), target: next(0)}
	for s.target > 0 {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		more, err := s.fill()
		s.lines(next, found)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// lineScanner splits a stream into lines, counting them: "\n", "\r\n"
// or a lone "\r" ends one, as for the Reader.
type lineScanner struct {
	src        io.Reader
	buf        []byte
	start, end int
	eof        bool
	line       int64 // lines ended so far
	target     int64 // the next line wanted, 0 for none
}

// fill reads more after the unfinished line; more is false at the end.
func (s *lineScanner) fill() (more bool, err error) {
	if s.eof {
		return false, nil
	}
	s.end = copy(s.buf, s.buf[s.start:s.end])
	s.start = 0
	if s.end == len(s.buf) {
		if len(s.buf) >= MaxLine {
			return false, io.ErrShortBuffer // the Reader has rejected such a line
		}
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	n, err := fillFrom(s.src, s.buf[s.end:]) // a cut gzip stream is an error, not the end
	s.end += n
	if err == io.EOF {
		s.eof, err = true, nil
	}
	return true, err
}

// lines hands over the wanted lines among the complete ones buffered (the
// last one too at the end of the input). A buffer with a '\r' is split
// line by line; one without, in blocks up to each wanted line (skip).
func (s *lineScanner) lines(next func(int64) int64, found func(int64, Fields)) {
	b := s.buf[s.start:s.end]
	cr := bytes.IndexByte(b, '\r') >= 0
	for s.target > 0 && len(b) > 0 {
		if !cr {
			if b = s.skip(b, s.target-s.line-1); s.line+1 < s.target && !s.eof {
				break // the rest is one unfinished line
			}
		}
		i, width := s.lineEnd(b, cr)
		if i < 0 {
			break
		}
		if s.line++; s.line == s.target {
			if f, ok := fieldsOf(b[:i]); ok {
				found(s.line, f)
			}
			s.target = next(s.line)
		}
		b = b[i+width:]
	}
	s.start = s.end - len(b)
}

// lineEnd is the end of b's first line and the width of its line end, or
// -1 if it may not be complete yet.
func (s *lineScanner) lineEnd(b []byte, cr bool) (i, width int) {
	if !cr {
		i = bytes.IndexByte(b, '\n')
	} else if i = lineEnd(b); i >= 0 && b[i] == '\r' {
		switch {
		case i+1 < len(b) && b[i+1] == '\n':
			return i, 2
		case i+1 == len(b) && !s.eof:
			return -1, 0 // its '\n' may come with the next read
		}
	}
	switch {
	case i >= 0:
		return i, 1
	case s.eof:
		return len(b), 0 // the last line, without a line end
	}
	return -1, 0
}

// skip passes over n lines of b ('\n'-ended), or as many as b holds
// whole: a block at a time (one count of its line ends) while more than
// a block's lines remain, then line by line.
func (s *lineScanner) skip(b []byte, n int64) []byte {
	const block = 256
	for n > 0 {
		if len(b) >= block {
			if j := bytes.LastIndexByte(b[:block], '\n'); j >= 0 {
				if c := int64(bytes.Count(b[:j+1], newline)); c <= n {
					s.line, n, b = s.line+c, n-c, b[j+1:]
					continue
				}
			}
		}
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		s.line, n, b = s.line+1, n-1, b[i+1:]
	}
	return b
}

var newline = []byte{'\n'}

// fieldsOf splits a line THREAD|OP|LOC as parse does, without checking the
// names.
func fieldsOf(line []byte) (Fields, bool) {
	bar := indexBar(line)
	if bar <= 0 {
		return Fields{}, false
	}
	op, loc := line[bar+1:], []byte(nil)
	if i := indexBar(op); i >= 0 {
		op, loc = op[:i], op[i+1:]
	}
	kind, target, ok := parseOp(op)
	return Fields{Thread: line[:bar], Target: target, Loc: loc, Op: kind}, ok
}
