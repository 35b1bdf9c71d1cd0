package trace

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// violatingGz is a small real trace (a violation under --lock-edges)
// compressed, and its text.
func violatingGz(t *testing.T) (gz []byte, text string) {
	t.Helper()
	b, err := os.ReadFile("../testdata/traces/jgf-sor-reduced.std")
	require.NoError(t, err)
	return gzipOf(t, string(b)), string(b)
}

// gzipOf is s compressed with gzip.
func gzipOf(t *testing.T, s string) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return z.Bytes()
}

// readGz reads every event of a gzip'd trace as the CLI does (NewReader,
// batches, the read-ahead goroutine) and returns them with the error that
// ended them (nil at the trace's end).
func readGz(t *testing.T, gz []byte, opts Options) (*Reader, []Event, error) {
	t.Helper()
	opts.BufSize = 1 << 10 // several chunks, and a fast test
	r, err := NewReader(bytes.NewReader(gz), "t.std.gz", opts)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var evs []Event
	buf := make([]Event, 64)
	for {
		n, err := r.Read(buf)
		evs = append(evs, buf[:n]...)
		if err == io.EOF {
			return r, evs, nil
		}
		if err != nil {
			return r, evs, err
		}
	}
}

// A gzip'd trace cut anywhere is an error that says so and names the line
// where reading stopped, never a shorter trace: a cut in the last few
// hundred bytes (the trailer, the end of the data) must not read as the
// trace's end, nor another cut blame the half line.
func TestGzipCutAnywhereIsAnError(t *testing.T) {
	gz, text := violatingGz(t)
	lines := int64(strings.Count(text, "\n"))
	for cut := 2; cut < len(gz); cut++ {
		_, evs, err := readGz(t, gz[:cut], Options{})
		require.Error(t, err, "cut at %d of %d", cut, len(gz))
		require.Contains(t, err.Error(), "gzip data truncated or corrupt", "cut at %d", cut)
		if len(evs) > 0 {
			// The line blamed is past the last event handed out.
			require.Contains(t, err.Error(), "t.std.gz:", "cut at %d", cut)
			require.Less(t, evs[len(evs)-1].Line, lines+1)
			var at int64
			_, serr := fmt.Sscanf(err.Error(), "t.std.gz:%d:", &at)
			require.NoError(t, serr)
			require.Greater(t, at, evs[len(evs)-1].Line, "cut at %d: %v", cut, err)
		}
	}
	// The whole stream reads to its end.
	_, evs, err := readGz(t, gz, Options{})
	require.NoError(t, err)
	require.NotEmpty(t, evs)
}

// Through Open (a .gz name, the file closed behind it) as well.
func TestGzipCutOpen(t *testing.T) {
	gz, _ := violatingGz(t)
	p := filepath.Join(t.TempDir(), "cut.std.gz")
	require.NoError(t, os.WriteFile(p, gz[:len(gz)/2], 0o644))
	r, err := Open(p, Options{})
	require.NoError(t, err)
	defer r.Close()
	evs := make([]Event, 1<<12)
	for err == nil {
		_, err = r.Read(evs)
	}
	require.NotEqual(t, io.EOF, err)
	require.Contains(t, err.Error(), "truncated or corrupt")
}

// A bit flipped anywhere in the stream either leaves data gzip accepts
// (a header field it does not check, the padding of the last byte), and
// then the same events, or is an error: never other events read as a
// whole trace. Lenient reading does not excuse it.
func TestGzipBitFlips(t *testing.T) {
	gz, _ := violatingGz(t)
	_, want, err := readGz(t, gz, Options{})
	require.NoError(t, err)
	bad := 0
	for i := range gz {
		flipped := append([]byte(nil), gz...)
		flipped[i] ^= 1 << (i % 8)
		_, gerr := io.ReadAll(mustGzip(flipped))
		for _, lenient := range []bool{false, true} {
			_, evs, err := readGz(t, flipped, Options{Lenient: lenient})
			if gerr == nil {
				require.NoError(t, err, "byte %d", i)
				require.Equal(t, want, evs, "byte %d", i)
				continue
			}
			require.Error(t, err, "byte %d: gzip says %v", i, gerr)
			bad++
		}
	}
	require.Greater(t, bad, len(gz))
}

// mustGzip is gzip's own reader over b, or a reader of its error.
func mustGzip(b []byte) io.Reader {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return errReader{err}
	}
	return zr
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
