package trace

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
)

// TestReaderMetamorphic: the reader hands out
// the same events for a trace, its CRLF spelling, its gzip compression and
// any consistent renaming of its threads, variables and locks (the names
// then map one to one), whatever the buffer size. cmd/conc's metamorphic
// tests check the verdicts; this pins a difference down to the reader.
func TestReaderMetamorphic(t *testing.T) {
	// Each reader allocates its read-ahead chunks: about 3 ms a case.
	for seed := range testflag.N(150, 3000) {
		rng := rand.New(rand.NewPCG(uint64(seed), 0x19))
		evs := genEvents(rng)
		std := stdOf(evs, GenName)
		base, baseNames := readEvents(t, []byte(std), 0)
		rename := renaming(rng)
		for _, v := range []struct {
			name string
			src  []byte
			ren  func(kind byte, id int32) string
		}{
			{"crlf", []byte(strings.ReplaceAll(std, "\n", "\r\n")), GenName},
			{"gzip", gzipOf(t, std), GenName},
			{"renamed", []byte(stdOf(evs, rename)), rename},
		} {
			got, names := readEvents(t, v.src, 16+rng.IntN(64))
			ctx := fmt.Sprintf("seed %d, %s, trace:\n%s", seed, v.name, std)
			if len(got) != len(base) {
				t.Fatalf("%s\n%d events, want %d", ctx, len(got), len(base))
			}
			for i := range got {
				if got[i] != base[i] {
					t.Fatalf("%s\nevent %d: %+v, want %+v", ctx, i, got[i], base[i])
				}
			}
			checkRenamed(t, ctx, baseNames, names, v.ren)
		}
	}
}

// genEvents draws a small trace with Gen.
func genEvents(rng *rand.Rand) []Event {
	g := NewGen(GenOptions{Seed: rng.Uint64(), Events: int64(1 + rng.IntN(60)),
		Threads: 1 + rng.IntN(4), Vars: 1 + rng.IntN(4), Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(3),
		Unprotected: rng.Float64(), Unary: rng.Float64() / 3, Nested: rng.Float64() / 4,
		Writes: rng.Float64(), Fork: rng.IntN(3) == 0})
	var evs []Event
	buf := make([]Event, 32)
	for {
		n, err := g.Read(buf)
		evs = append(evs, buf[:n]...)
		if err == io.EOF {
			return evs
		}
	}
}

func stdOf(evs []Event, name func(kind byte, id int32) string) string {
	var b []byte
	for _, e := range evs {
		b = AppendSTD(b, e, name)
	}
	return string(b)
}

// renaming names each kind's ids with distinct fresh names (Gen's ids stay
// below 4).
func renaming(rng *rand.Rand) func(kind byte, id int32) string {
	prefixes := []string{"a_", "r_", "begin_", "_", "T_", "x_"}
	names := map[byte][]string{}
	for _, k := range []byte{'T', 'x', 'l'} {
		for _, i := range rng.Perm(8) {
			names[k] = append(names[k], prefixes[rng.IntN(len(prefixes))]+fmt.Sprint(i))
		}
	}
	return func(kind byte, id int32) string { return names[kind][id] }
}

// tables are a reader's names of threads, variables and locks, by kind.
type tables map[byte][]string

// readEvents reads src to its end with buffer size bufSize.
func readEvents(t *testing.T, src []byte, bufSize int) ([]Event, tables) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(src), "t.std", Options{BufSize: bufSize})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var evs []Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			return evs, tables{'T': r.Threads().Names(), 'x': r.Vars().Names(), 'l': r.Locks().Names()}
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		evs = append(evs, e)
	}
}

// checkRenamed: the reader's id i of each kind names ren of what the
// original trace's id i names (GenName's spelling, kind and number).
func checkRenamed(t *testing.T, ctx string, base, got tables, ren func(kind byte, id int32) string) {
	t.Helper()
	for kind, names := range base {
		if len(got[kind]) != len(names) {
			t.Fatalf("%s\n%d names of kind %c, want %d", ctx, len(got[kind]), kind, len(names))
		}
		for i, n := range names {
			var id int32
			if _, err := fmt.Sscanf(n[1:], "%d", &id); err != nil {
				t.Fatalf("%s\nname %q is not Gen's", ctx, n)
			}
			if want := ren(kind, id); got[kind][i] != want {
				t.Fatalf("%s\n%c id %d is %q, want %q", ctx, kind, i, got[kind][i], want)
			}
		}
	}
}
