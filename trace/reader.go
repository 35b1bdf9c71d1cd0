package trace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
)

// Options tune a Reader.
type Options struct {
	// Lenient skips malformed lines (and lock or transaction events that do
	// not match, such as a rel of a lock not held) and counts
	// them by kind in Stats.Skipped instead of failing.
	Lenient bool
	// BufSize is the initial buffer size; 0 means 1 MiB. Lines longer than
	// the buffer grow it up to MaxLine.
	BufSize int
	// Orderings reads docs/spec.md §3's extension: read locks (racq,
	// rrel) and messages (post, wait). Without it their lines are
	// malformed, so that a reader of the events that does not honour
	// them never sees them.
	Orderings bool
}

// MaxLine is the longest line a Reader accepts.
const MaxLine = 64 << 20

// Reader streams the events of one trace. It is not safe for concurrent use.
type Reader struct {
	name    string
	src     io.Reader
	closers []io.Closer
	opts    Options
	ctx     context.Context // bounds the reading beyond the events (Within)

	buf        []byte
	start, end int // unread bytes are buf[start:end]
	eof        bool
	err        error // sticky
	gz         bool  // the source is inflated: a bad line may be damage (damage.go)

	threads, vars, locks, locs, msgs Table
	threadKeys                       [1 << threadCacheBits]threadKey // packed short thread names (thread)

	depth []int32 // per thread: begin/end nesting depth
	life  []uint8 // per thread: lifeStarted, lifeJoined bits (exactly lifeStarted: started, not joined)
	owner []int32 // per lock: holding thread, -1 when free
	count []int32 // per lock: re-entrance count of the holder
	// forkedAt is, per thread, the line of its fork, 0 if none (kept out
	// of life, whose exact lifeStarted the fast tiers test).
	forkedAt []int64
	// readers: per lock, how many threads read-hold it (owner is
	// readHeld while any does); rheld: per thread and lock, its read
	// re-entrance count. waited: per message, the line of its first
	// wait, 0 while none.
	readers []int32
	rheld   map[[2]int32]int32
	waited  []int64
	tokens  []int64 // per token: given and not yet taken

	stats Stats
	why   Skip // the kind of the bad line at hand (impossible), else SkipMalformed
	// bytewise turns fastLine off, and portable quickLines's assembly
	// (tests compare the paths).
	bytewise, portable bool
	// handed counts the events handed out, for a progress display on
	// another goroutine: Read adds its batch once, not per event.
	handed atomic.Int64
}

// Open opens a trace file: "-" is standard input, and gzip input (a ".gz"
// name or gzip's magic bytes) is decompressed transparently on a second
// goroutine, so that inflating and scanning overlap.
func Open(path string, opts Options) (*Reader, error) {
	var f io.ReadCloser = os.Stdin
	name := "<stdin>"
	if path != "-" {
		g, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		f, name = g, path
	}
	r, err := NewReader(f, name, opts)
	if err != nil {
		if path != "-" {
			f.Close()
		}
		return nil, err
	}
	if path != "-" {
		r.closers = append(r.closers, f)
	}
	return r, nil
}

// NewReader reads a trace from src; name is used in error messages. Gzip
// input is recognised by its magic bytes, or by a name ending in ".gz":
// such a file whose magic is damaged is a corrupt gzip stream, not text.
func NewReader(src io.Reader, name string, opts Options) (*Reader, error) {
	size := opts.BufSize
	if size <= 0 {
		size = 1 << 20
	}
	size = max(size, 2) // the gzip sniff below reads two bytes
	r := &Reader{name: name, opts: opts, buf: newBuf(size), ctx: context.Background()}
	// Sniff the first bytes for gzip's magic number.
	n, err := io.ReadFull(src, r.buf[:2])
	r.end = n
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		r.eof = true
	} else if err != nil {
		return nil, err
	}
	if gzipped(name, r.buf[:n]) {
		zr, err := newInflater(io.MultiReader(bytes.NewReader(append([]byte(nil), r.buf[:n]...)), src))
		if err != nil {
			return nil, &Error{File: name, Line: 1, Msg: err.Error(), cause: err}
		}
		a := newAsyncReader(zr, size)
		r.src, r.closers, r.gz = a, append(r.closers, a), true
		r.start, r.end, r.eof = 0, 0, false
		return r, nil
	}
	r.src = src
	return r, nil
}

// gzipped says input called name whose first bytes are magic is gzip: a
// name ending in ".gz" (whatever its magic, which may be damaged), or
// gzip's magic bytes.
func gzipped(name string, magic []byte) bool {
	return strings.HasSuffix(name, ".gz") || bytes.HasPrefix(magic, []byte{0x1f, 0x8b})
}

// Close releases the files and goroutines behind the Reader.
func (r *Reader) Close() error {
	var first error
	for i := len(r.closers) - 1; i >= 0; i-- {
		if err := r.closers[i].Close(); err != nil && first == nil {
			first = err
		}
	}
	r.closers = nil
	return first
}

// Name is the trace's name as used in error messages.
func (r *Reader) Name() string { return r.name }

// Threads, Vars, Locks, Locs and Msgs are the interned names seen so far.
func (r *Reader) Threads() *Table { return &r.threads }
func (r *Reader) Vars() *Table    { return &r.vars }
func (r *Reader) Locks() *Table   { return &r.locks }
func (r *Reader) Locs() *Table    { return &r.locs }
func (r *Reader) Msgs() *Table    { return &r.msgs }

// Stats are the counters so far.
func (r *Reader) Stats() Stats { return r.stats }

// EventsRead is the number of events handed out so far. Unlike the rest
// of the Reader it may be called from any goroutine (a progress display).
func (r *Reader) EventsRead() int64 { return r.handed.Load() }

// Next returns the next event, or io.EOF after the last one.
func (r *Reader) Next() (Event, error) {
	var ev Event
	err := r.next(&ev)
	if err == nil {
		r.handed.Add(1)
	}
	return ev, err
}

// Read fills evs with the next events and returns how many it stored; at
// the end of the trace it returns 0, io.EOF. A batch amortises the call:
// runs of usual lines go from quickLines to evs, and next (fastLine, else
// parse) takes each line quickLines leaves.
func (r *Reader) Read(evs []Event) (int, error) {
	i := 0
	var err error
	for i < len(evs) {
		if r.err == nil && !r.bytewise {
			if n := r.quickLines(evs[i:]); n > 0 {
				i += n
				continue
			}
		}
		if err = r.next(&evs[i]); err != nil {
			break
		}
		i++
	}
	r.handed.Add(int64(i))
	if i > 0 && err == io.EOF {
		return i, nil
	}
	return i, err
}

// next parses lines until one yields an event.
func (r *Reader) next(ev *Event) error {
	if r.err != nil {
		return r.err
	}
	for {
		var msg string
		emit, ok := false, false
		if !r.bytewise {
			msg, emit, ok = r.fastLine(ev)
		}
		if !ok {
			line, ok, err := r.nextLine()
			if err != nil {
				r.err = err
				return err
			}
			if !ok {
				r.err = io.EOF
				return io.EOF
			}
			msg, emit = r.parse(line, ev)
		}
		if msg != "" {
			if err := r.bad(msg); err != nil {
				return err
			}
			continue
		}
		if emit {
			ev.Line = r.stats.Lines
			r.stats.Events++
			return nil
		}
	}
}

// bad handles a bad line: counted by kind and skipped when lenient, else
// the Reader's final error, with the line number.
func (r *Reader) bad(msg string) error {
	why := r.why
	r.why = SkipMalformed
	if r.opts.Lenient {
		r.stats.Skipped[why]++
		if r.stats.FirstSkipped == 0 {
			r.stats.FirstSkipped = r.stats.Lines
		}
		return nil
	}
	r.err = r.blame(r.stats.Lines, msg)
	return r.err
}

// nextLine returns the next line without its line end: "\n", "\r\n", or
// a lone "\r" (old Mac files; docs/spec.md §3).
func (r *Reader) nextLine() ([]byte, bool, error) {
	for {
		b := r.buf[r.start:r.end]
		if i := lineEnd(b); i >= 0 && (b[i] == '\n' || i+1 < len(b) || r.eof) {
			line := b[:i]
			r.start += i + 1
			if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				r.start++
			}
			r.stats.Lines++
			return line, true, nil
		}
		// No line end yet, or a '\r' whose '\n' may come with the next read.
		if r.eof {
			if r.start == r.end {
				return nil, false, nil
			}
			line := r.buf[r.start:r.end]
			r.start = r.end
			r.stats.Lines++
			return line, true, nil
		}
		if err := r.fill(); err != nil {
			return nil, false, err
		}
	}
}

// lineEnd is the index of the first '\n' or '\r' in b, or -1. A plain
// loop, linear in the line: searching for '\n' first would cross the
// whole buffer for each line of a file with only '\r's. Only the lines
// the fast tiers leave come here.
func lineEnd(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// fill moves the partial line to the front and reads more, growing the
// buffer when one line fills it.
func (r *Reader) fill() error {
	if r.start > 0 {
		r.end = copy(r.buf, r.buf[r.start:r.end])
		r.start = 0
	}
	if r.end == len(r.buf) {
		if len(r.buf) >= MaxLine {
			return r.blame(r.stats.Lines+1, "line too long")
		}
		nb := newBuf(2 * len(r.buf))
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	n, err := r.src.Read(r.buf[r.end:])
	r.end += n
	if errors.Is(err, io.EOF) {
		r.eof = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s:%d: %w", r.name, r.stats.Lines+1, err)
	}
	return nil
}
