//go:build go1.21

package rt

// The lines are gathered in buf under mu and handed, a chunk at a time,
// to the compressor goroutine, which gzips them into the file: the
// program's goroutines wait for the lock only while their line is
// appended, not while it is compressed. At most queued chunks wait for
// the compressor (then emit blocks), so memory stays flat however long
// the trace.
const (
	chunkSize = 64 << 10
	queued    = 4
)

// chunk is a run of whole lines; a non-nil done asks the compressor to
// flush the gzip stream to the file after them and then close done.
type chunk struct {
	data []byte
	done chan struct{}
}

var (
	buf        []byte // lines not yet handed over; mu guards it
	chunks     = make(chan chunk, queued)
	free       = make(chan []byte, queued+1) // buffers to reuse
	compressed = make(chan struct{})         // closed when the file is
)

// handOff passes buf to the compressor and starts a new one; mu is held.
func handOff(done chan struct{}) {
	if len(buf) == 0 && done == nil {
		return
	}
	chunks <- chunk{data: buf, done: done}
	select {
	case buf = <-free:
	default:
		buf = make([]byte, 0, chunkSize)
	}
}

// compressor gzips the chunks in order and closes the file when the
// channel is closed (Finish).
func compressor() {
	for c := range chunks {
		zw.Write(c.data)
		if c.done != nil {
			zw.Flush()
			close(c.done)
		}
		select {
		case free <- c.data[:0]:
		default:
		}
	}
	zw.Close()
	file.Close()
	close(compressed)
}
