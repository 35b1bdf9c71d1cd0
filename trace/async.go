package trace

import "io"

const (
	asyncChunk = 1 << 20 // bytes a chunk
	asyncDepth = 4       // chunks that may wait for the Reader
)

// asyncReader reads its source on its own goroutine, a chunk ahead, so
// that gzip's inflating runs on another core while the Reader scans the
// previous chunk.
type asyncReader struct{ *Ahead[byte] }

func newAsyncReader(src io.Reader) asyncReader {
	return asyncReader{readAhead(asyncDepth, asyncChunk, func(b []byte) (int, error) {
		n, err := io.ReadFull(src, b)
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		return n, err
	})}
}

// Close stops the pump without waiting for it, which may be blocked
// reading the source (standard input, say); it does not close the source.
func (a asyncReader) Close() error {
	a.halt()
	return nil
}
