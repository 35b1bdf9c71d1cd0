package trace

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchTrace is a synthetic trace shaped like RoadRunner's: 8 threads,
// 10^4 variables, 16 locks.
func benchTrace(b *testing.B, events int64) []byte {
	return []byte(genText(b, GenOptions{Seed: 1, Events: events, Threads: 8, Vars: 10000, Locks: 16, TxnLen: 8,
		Unprotected: 0.01, Unary: 0.3, Nested: 0.1, Writes: 0.3, Fork: true}))
}

// genText is the STD text of the generated trace o.
func genText(t testing.TB, o GenOptions) string {
	var b strings.Builder
	_, err := NewGen(o).WriteTo(&b)
	require.NoError(t, err)
	return b.String()
}

func drain(b *testing.B, r *Reader) int64 {
	evs := make([]Event, 4096)
	var n int64
	for {
		k, err := r.Read(evs)
		n += int64(k)
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReader measures scanning throughput (MB/s) on uncompressed text.
func BenchmarkReader(b *testing.B) {
	benchRead(b, benchTrace(b, 1_000_000))
}

// BenchmarkReaderLong reads a large synthetic trace: 10^7 events, 8
// threads, 10^4 variables and 16 locks (109 MB). Unlike BenchmarkReader's,
// its runs are long enough that interning the names is no part of them.
func BenchmarkReaderLong(b *testing.B) {
	benchRead(b, benchTrace(b, 10_000_000))
}

// benchRead reads data (STD text) once per iteration and reports MB/s.
func benchRead(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data), "bench.std", Options{})
		if err != nil {
			b.Fatal(err)
		}
		drain(b, r)
	}
}

// BenchmarkReaderRoadRunner is BenchmarkReader on lines shaped like
// RoadRunner's: decimal locations and some long field names.
func BenchmarkReaderRoadRunner(b *testing.B) {
	benchRead(b, []byte(roadRunnerShape(string(benchTrace(b, 1_000_000)), 1, false)))
}
