package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// A damaged gzip stream does not always fail where the damage is: flate
// may inflate garbage for thousands of bytes, and gzip checks its CRC only
// at the stream's end. So the first sign of damage is often a bad line
// ("malformed op"), or no sign at all before a caller stops reading (monitor
// --first). The Reader therefore reads the rest of a compressed stream,
// unparsed, before it blames a line, and VerifyRest does the same for a
// caller that stopped early (docs/spec.md §3).

// blame is the error for the bad line msg at the current line: for gzip
// input whose rest turns out damaged, the damage, naming the line at which
// reading stopped and what the line looked like; else the line's error.
func (r *Reader) blame(line int64, msg string) error {
	if r.gz {
		var d *damagedError
		if err := r.drain(r.ctx); errors.As(err, &d) {
			return &Error{File: r.name, Line: line,
				Msg: fmt.Sprintf("%v; the line read as %s, likely damage", d, msg), cause: d}
		}
	}
	return &Error{File: r.name, Line: line, Msg: msg}
}

// Within bounds the reading the Reader does beyond the events a caller
// asks for (the rest of a gzip stream read to tell damage from a bad line)
// by ctx: a caller's --timeout must hold there too. When ctx ends first,
// the bad line is blamed as it reads. Without Within, that reading is
// unbounded.
func (r *Reader) Within(ctx context.Context) { r.ctx = ctx }

// VerifyRest reads what is left of a compressed input, without parsing it,
// and returns the damage it finds as an error at the line where reading
// stopped: an answer given before the end of a gzip stream (monitor
// --first) must not rest on a stream that fails its checksum. It returns
// nil for uncompressed input, for input read to its end, and when ctx ends
// first (the caller's deadline wins over the check).
func (r *Reader) VerifyRest(ctx context.Context) error {
	if !r.gz || r.eof || r.err != nil {
		return nil
	}
	var d *damagedError
	if err := r.drain(ctx); errors.As(err, &d) {
		return &Error{File: r.name, Line: r.stats.Lines + 1, Msg: d.Error(), cause: d}
	}
	return nil
}

// drain reads the source to its end, discarding the bytes, and returns
// the error that ended it (nil at the end, ctx's error when it ended
// first). The Reader hands out no events after it.
func (r *Reader) drain(ctx context.Context) error {
	r.start, r.end = 0, 0
	for !r.eof {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, err := r.src.Read(r.buf)
		if errors.Is(err, io.EOF) {
			r.eof = true
		} else if err != nil {
			return err
		}
	}
	return nil
}
