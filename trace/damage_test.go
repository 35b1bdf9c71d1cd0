package trace

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// genGz is a synthetic trace of about events events, gzip'd.
func genGz(t *testing.T, events int64) []byte {
	t.Helper()
	var text bytes.Buffer
	g := NewGen(GenOptions{Seed: 7, Events: events, Threads: 4, Vars: 8, Locks: 2, TxnLen: 3,
		Unprotected: 0.1, Unary: 0.1, Writes: 0.5})
	_, err := g.WriteTo(&text)
	require.NoError(t, err)
	return gzipOf(t, text.String())
}

// overwrite returns gz with 3 bytes at off replaced, as a disk or a copy
// might damage it.
func overwrite(gz []byte, off int) []byte {
	b := append([]byte(nil), gz...)
	copy(b[off:], []byte{0x55, 0xaa, 0x5a})
	return b
}

// A gzip stream damaged in the middle often inflates to garbage that the
// Reader blames as a bad line ("malformed op") long before gzip's checksum
// fails. The error must say that the stream is corrupt, with or without
// --lenient, wherever the damage is.
func TestGzipDamageIsNamed(t *testing.T) {
	gz := genGz(t, 20_000)
	blamedLine := 0
	for off := 10; off < len(gz)-3; off += len(gz) / 40 {
		for _, lenient := range []bool{false, true} {
			_, _, err := readGz(t, overwrite(gz, off), Options{Lenient: lenient})
			require.Error(t, err, "offset %d", off)
			require.Contains(t, err.Error(), "gzip data truncated or corrupt", "offset %d lenient %v", off, lenient)
			var d *damagedError
			require.True(t, errors.As(err, &d), "offset %d: %v", off, err)
			if bytes.Contains([]byte(err.Error()), []byte("the line read as")) {
				blamedLine++
			}
		}
	}
	// The case under test happened: a bad line whose cause was damage.
	require.Positive(t, blamedLine)
}

// readSome reads about n events of r.
func readSome(t *testing.T, r *Reader, n int) {
	t.Helper()
	buf := make([]Event, n)
	got, err := r.Read(buf)
	require.NoError(t, err)
	require.Positive(t, got)
}

// VerifyRest finds damage after the point where a caller stopped reading
// (monitor --first), and passes an intact stream, uncompressed input, and
// a reader already at its end.
func TestVerifyRest(t *testing.T) {
	gz := genGz(t, 20_000)
	open := func(b []byte) *Reader {
		r, err := NewReader(bytes.NewReader(b), "t.std.gz", Options{BufSize: 1 << 10})
		require.NoError(t, err)
		t.Cleanup(func() { r.Close() })
		return r
	}
	r := open(overwrite(gz, len(gz)-20))
	readSome(t, r, 10)
	err := r.VerifyRest(context.Background())
	require.ErrorContains(t, err, "gzip data truncated or corrupt")
	require.Regexp(t, `^t\.std\.gz:\d+: reading stopped`, err.Error())

	r = open(gz)
	readSome(t, r, 10)
	require.NoError(t, r.VerifyRest(context.Background()))

	r = open(gz)
	for err = nil; err == nil; {
		_, err = r.Read(make([]Event, 1<<10))
	}
	require.ErrorIs(t, err, io.EOF)
	require.NoError(t, r.VerifyRest(context.Background()))

	plain, err := NewReader(bytes.NewReader([]byte("T|r(x)\nT|w(x)\n")), "t.std", Options{})
	require.NoError(t, err)
	readSome(t, plain, 1)
	require.NoError(t, plain.VerifyRest(context.Background()))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = open(overwrite(gz, len(gz)-20))
	readSome(t, r, 10)
	require.NoError(t, r.VerifyRest(ctx), "the deadline wins over the check")
}

// TestWithinBoundsTheBlame: reading the rest of a gzip stream to tell damage
// from a bad line is bounded by the caller's context (Within): a deadline
// already past blames the line as it reads, where an unbounded Reader reads
// on and names the damage behind it (a 17 MB .gz with a bad second line
// took 0.66 s to reject, also under --timeout 100ms).
func TestWithinBoundsTheBlame(t *testing.T) {
	text := "T0|begin\nT0|rd(x)\n" + strings.Repeat("T0|r(x)\n", 5000)
	gz := gzipOf(t, text)
	gz = gz[:len(gz)-4] // a cut trailer: damage only the end of the stream shows
	for _, bounded := range []bool{false, true} {
		r, err := NewReader(bytes.NewReader(gz), "t.std.gz", Options{BufSize: 1 << 10})
		require.NoError(t, err)
		if bounded {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			r.Within(ctx)
		}
		_, err = r.Read(make([]Event, 64))
		require.Error(t, err)
		var d *damagedError
		require.Equal(t, !bounded, errors.As(err, &d), "bounded %v: %v", bounded, err)
		require.Contains(t, err.Error(), `t.std.gz:2: `)
		require.Contains(t, err.Error(), `malformed op "rd(x)"`)
	}
}
