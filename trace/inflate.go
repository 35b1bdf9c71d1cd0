package trace

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// inflater is a gzip stream read for the Reader: it tells a stream that
// ends where it should (io.EOF) from one that is truncated or corrupt,
// which is bad input and never the trace's end. gzip reports a cut stream
// as io.ErrUnexpectedEOF, a damaged one as a checksum, header or flate
// error; the events read before it stand, but no verdict may rest on
// them (docs/spec.md §3).
type inflater struct{ zr *gzip.Reader }

func (z inflater) Read(p []byte) (int, error) {
	n, err := z.zr.Read(p)
	if err != nil && err != io.EOF {
		err = &damagedError{err}
	}
	return n, err
}

// damagedError is a truncated or corrupt compressed stream.
type damagedError struct{ cause error }

func (e *damagedError) Error() string {
	return fmt.Sprintf("reading stopped: gzip data truncated or corrupt (%v)", e.cause)
}

func (e *damagedError) Unwrap() error { return e.cause }

// newInflater starts inflating src; a header cut short is damage too.
func newInflater(src io.Reader) (inflater, error) {
	zr, err := gzip.NewReader(src)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrHeader) {
			err = &damagedError{err}
		}
		return inflater{}, err
	}
	return inflater{zr}, nil
}
