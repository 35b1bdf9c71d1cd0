package trace

import "io"

const (
	asyncChunk = 1 << 20 // bytes a chunk, at most (Options.BufSize when smaller)
	asyncDepth = 4       // chunks that may wait for the Reader
)

// asyncReader reads its source on its own goroutine, a chunk ahead, so
// that gzip's inflating runs on another core while the Reader scans the
// previous chunk.
type asyncReader struct{ *Ahead[byte] }

func newAsyncReader(src io.Reader, chunk int) asyncReader {
	return asyncReader{readAhead(asyncDepth, min(chunk, asyncChunk), func(b []byte) (int, error) {
		return fillFrom(src, b)
	})}
}

// fillFrom reads src until b is full or src fails, and returns src's own
// error: io.ReadFull's io.ErrUnexpectedEOF would be ambiguous here, as
// gzip reports a truncated stream with that very error.
func fillFrom(src io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k, err := src.Read(b[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Close stops the pump without waiting for it, which may be blocked
// reading the source (standard input, say); it does not close the source.
func (a asyncReader) Close() error {
	a.halt()
	return nil
}
