package trace

import (
	"io"
	"sync"
)

// asyncReader reads its source on its own goroutine, a chunk ahead, so that
// gzip's inflating (the slower half of reading a .gz trace) runs on another
// core while the Reader scans the previous chunk.
type asyncReader struct {
	full chan chunk
	free chan []byte
	done chan struct{}
	once sync.Once
	cur  chunk
	off  int
}

type chunk struct {
	b   []byte
	err error
}

const (
	asyncChunk = 1 << 20
	asyncDepth = 4
)

func newAsyncReader(src io.Reader) *asyncReader {
	a := &asyncReader{
		full: make(chan chunk, asyncDepth),
		free: make(chan []byte, asyncDepth+1),
		done: make(chan struct{}),
	}
	for i := 0; i < asyncDepth+1; i++ {
		a.free <- make([]byte, asyncChunk)
	}
	go a.pump(src)
	return a
}

// pump fills free buffers from src until an error (io.EOF included), which
// it passes on with the last chunk.
func (a *asyncReader) pump(src io.Reader) {
	for {
		var b []byte
		select {
		case b = <-a.free:
		case <-a.done:
			return
		}
		n, err := io.ReadFull(src, b)
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		select {
		case a.full <- chunk{b[:n], err}:
		case <-a.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (a *asyncReader) Read(p []byte) (int, error) {
	for a.off == len(a.cur.b) {
		if a.cur.err != nil {
			return 0, a.cur.err
		}
		if a.cur.b != nil {
			a.free <- a.cur.b[:cap(a.cur.b)]
		}
		a.cur, a.off = <-a.full, 0
	}
	n := copy(p, a.cur.b[a.off:])
	a.off += n
	return n, nil
}

// Close stops the pump; it does not close the source.
func (a *asyncReader) Close() error {
	a.once.Do(func() { close(a.done) })
	return nil
}
