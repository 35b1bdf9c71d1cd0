package proj

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// The spool keeps the projection on disk: the first pass writes every event
// of the trace in a compact binary form, and the later passes (the scan for
// interrupted transactions, the witness, the program for the lock-aware
// engines) read it back instead of parsing the trace again. A record is
//
//	header byte: op (low 4 bits) | spoolThread | spoolLine
//	thread id   (uvarint, when spoolThread: the thread changed)
//	target id   (uvarint, when the op has one)
//	line delta  (uvarint, when spoolLine: the line is not the previous + 1)
//	code location (uvarint, when spoolLoc: only in a spool that keeps them,
//	              for conc predict --all's signatures, predict/all)
//
// so a typical event costs two or three bytes. The first SpoolMem bytes stay
// in memory (a small trace never touches the disk); past that the spool
// moves to a temporary file, so memory stays bounded however long the trace.
const (
	spoolThread = 1 << 4
	spoolLine   = 1 << 5
	spoolLoc    = 1 << 6
	spoolMaxRec = 1 + 4*binary.MaxVarintLen64
	spoolBuf    = 1 << 20
)

// SpoolMem is how many bytes a spool keeps in memory before it moves to its
// file (a variable so that tests can make it small).
var SpoolMem = 4 << 20

// Spool is the on-disk projection. It is written once, then read any number
// of times, each reader with its own offset.
type Spool struct {
	dir string
	// buf is the whole spool while it is small (f == nil), then the bytes
	// not yet written to f: records are encoded straight into it.
	buf        []byte
	memMax     int // spill to the file past this many bytes
	f          *os.File
	size       int64
	lastThread int32
	lastLine   int64
	events     int64
	// Locs keeps each event's code location (STD's LOC; --all only: the
	// other passes have no use for it).
	Locs bool
	// Shift is added to every line as the first pass reads it (tests).
	Shift int64
	// Passes counts the readers started: what a pass costs is the trace's
	// length, so tests count passes instead of timing them.
	Passes int
}

// NewSpool starts an empty spool; past SpoolMem bytes it moves to a file in
// dir ("" is the system's temporary directory), which Close removes.
func NewSpool(dir string) (*Spool, error) {
	return &Spool{dir: dir, memMax: SpoolMem, lastThread: -1}, nil
}

// spill moves the spool to its file.
func (s *Spool) spill() error {
	f, err := os.CreateTemp(s.dir, "conc-predict-*.spool")
	if err != nil {
		return fmt.Errorf("predict: spool: %w", err)
	}
	s.f = f
	err = s.flush()
	s.buf = make([]byte, 0, spoolBuf)
	return err
}

// flush writes buf to the file.
func (s *Spool) flush() error {
	if _, err := s.f.Write(s.buf); err != nil {
		return fmt.Errorf("predict: spool: %w", err)
	}
	s.buf = s.buf[:0]
	return nil
}

// put appends one event.
func (s *Spool) put(ev *trace.Event) error {
	if s.f != nil && len(s.buf)+spoolMaxRec > cap(s.buf) {
		if err := s.flush(); err != nil {
			return err
		}
	}
	at := len(s.buf)
	b := append(s.buf, byte(ev.Op))
	if ev.Thread != s.lastThread {
		b[at] |= spoolThread
		b = binary.AppendUvarint(b, uint64(ev.Thread))
		s.lastThread = ev.Thread
	}
	if ev.Op.HasTarget() {
		b = binary.AppendUvarint(b, uint64(ev.Target))
	}
	if d := ev.Line - s.lastLine; d != 1 {
		b[at] |= spoolLine
		b = binary.AppendUvarint(b, uint64(d))
	}
	s.lastLine = ev.Line
	if s.Locs && ev.Loc >= 0 {
		b[at] |= spoolLoc
		b = binary.AppendUvarint(b, uint64(ev.Loc))
	}
	s.buf = b
	s.events++
	s.size += int64(len(b) - at)
	if s.f == nil && len(b) >= s.memMax {
		return s.spill()
	}
	return nil
}

// finish flushes the writes; the spool is then ready to be read.
func (s *Spool) finish() error {
	if s.f == nil {
		return nil
	}
	return s.flush()
}

// Close removes the spool file.
func (s *Spool) Close() error {
	if s == nil || s.f == nil {
		return nil
	}
	name := s.f.Name()
	err := s.f.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	s.f = nil
	return err
}

// Reader starts a pass over the spool from its first event.
func (s *Spool) Reader() *SpoolReader {
	s.Passes++
	if s.f == nil {
		return &SpoolReader{buf: s.buf, end: len(s.buf), eof: true}
	}
	return &SpoolReader{src: io.NewSectionReader(s.f, 0, s.size), buf: make([]byte, spoolBuf)}
}

// SpoolReader decodes the spool's records in order.
type SpoolReader struct {
	src        io.Reader
	buf        []byte
	start, end int
	eof        bool
	thread     int32
	line       int64
}

// Read decodes events into evs as Reader.Read parses them (for
// trace.ReadAhead): it returns how many, and io.EOF with the last ones.
func (r *SpoolReader) Read(evs []trace.Event) (int, error) {
	for n := range evs {
		if err := r.Next(&evs[n]); err != nil {
			return n, err
		}
	}
	return len(evs), nil
}

// Next decodes one event into ev; it returns io.EOF after the last one.
func (r *SpoolReader) Next(ev *trace.Event) error {
	if r.end-r.start < spoolMaxRec && !r.eof {
		if err := r.fill(); err != nil {
			return err
		}
	}
	if r.start == r.end {
		return io.EOF
	}
	b := r.buf[r.start:r.end]
	h := b[0]
	k := 1
	if h&spoolThread != 0 {
		v, n := binary.Uvarint(b[k:])
		if n <= 0 {
			return errCorrupt
		}
		r.thread, k = int32(v), k+n
	}
	ev.Thread, ev.Op, ev.Target, ev.Loc = r.thread, model.Op(h&15), -1, -1
	if ev.Op.HasTarget() {
		v, n := binary.Uvarint(b[k:])
		if n <= 0 {
			return errCorrupt
		}
		ev.Target, k = int32(v), k+n
	}
	d := int64(1)
	if h&spoolLine != 0 {
		v, n := binary.Uvarint(b[k:])
		if n <= 0 {
			return errCorrupt
		}
		d, k = int64(v), k+n
	}
	r.line += d
	ev.Line = r.line
	if h&spoolLoc != 0 {
		v, n := binary.Uvarint(b[k:])
		if n <= 0 {
			return errCorrupt
		}
		ev.Loc, k = int32(v), k+n
	}
	r.start += k
	return nil
}

var errCorrupt = errors.New("predict: spool: corrupt record")

// fill moves the unread bytes to the front and reads more.
func (r *SpoolReader) fill() error {
	r.end = copy(r.buf, r.buf[r.start:r.end])
	r.start = 0
	for r.end < len(r.buf) && !r.eof {
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		if err == io.EOF {
			r.eof = true
		} else if err != nil {
			return fmt.Errorf("predict: spool: %w", err)
		}
		if r.end >= spoolMaxRec {
			break
		}
	}
	return nil
}

// SpoolEach is one pass over the spool, event by event until f returns
// false or stop (polled every 4,096 events) says so; it reports whether
// the pass read the whole trace.
func SpoolEach(sp *Spool, stop func() bool, f func(*trace.Event) bool) (bool, error) {
	r := sp.Reader()
	var ev trace.Event
	for n := 1; ; n++ {
		if err := r.Next(&ev); err == io.EOF {
			return true, nil
		} else if err != nil {
			return false, err
		}
		if !f(&ev) || n&4095 == 0 && stop() {
			return false, nil
		}
	}
}
