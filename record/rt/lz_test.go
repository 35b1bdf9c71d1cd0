//go:build go1.21

package rt

import (
	"bytes"
	"compress/gzip"
	"errors"
	"hash/crc32"
	"io"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
)

// lineGen draws lines from a small vocabulary, mostly repeating recent
// runs of lines (as traces do), sometimes new ones (new objects), some
// longer than a deflate match and some long enough to push the others out
// of the 32 KiB window.
type lineGen struct {
	rng    *rand.Rand
	ls     lines
	recent []*line
	fresh  int
}

func newLineGen(seed int64) *lineGen {
	return &lineGen{rng: rand.New(rand.NewSource(seed)), ls: newLines(shifts{})}
}

func (g *lineGen) pick(xs ...string) string { return xs[g.rng.Intn(len(xs))] }

func (g *lineGen) newLine() *line {
	r := g.rng
	thread := g.pick("g1", "g2", "TestTransfer", "u1", "main")
	arg := ""
	switch r.Intn(6) {
	case 0:
		arg = g.pick("bank.Account.balance", "pkg.v", "x")
	case 1:
		arg = "bank.Account.mu#" + strconv.Itoa(r.Intn(50))
	case 2:
		arg = "pkg.T.buf#" + strconv.Itoa(r.Intn(5)) + "[" + strconv.Itoa(r.Intn(300)) + "]"
	case 3:
		g.fresh++ // a name never seen
		arg = "obj.T.f#" + strconv.Itoa(g.fresh)
	case 4:
		arg = strings.Repeat("long.Name", 1+r.Intn(60)) // up to 540 bytes
	}
	loc := g.pick("", "bank/account.go:12 (*Account).Withdraw", "a.go:1 F", strings.Repeat("dir/", r.Intn(80))+"f.go:7 G")
	evs := []named{{op(r.Intn(len(opText))), arg}}
	if r.Intn(5) == 0 { // a record of two events
		evs = append(evs, named{op(r.Intn(len(opText))), g.pick(arg, "", "bank.Account.mu#1")})
	}
	return g.ls.make(uint64(len(thread)), uint64(len(loc)+len(evs)), uint64(len(loc)), thread, loc, evs...)
}

// next is the next line: a new one, or one of the recent ones, or the
// one after a recent one (so that runs repeat).
func (g *lineGen) next() *line {
	r := g.rng
	var l *line
	switch k := r.Intn(10); {
	case k < 2 || len(g.recent) < 2:
		l = g.newLine()
	case k < 5:
		l = g.recent[r.Intn(len(g.recent))]
	default: // continue a run
		i := r.Intn(len(g.recent) - 1)
		l = g.recent[i+1]
	}
	g.recent = append(g.recent, l)
	if len(g.recent) > 300 {
		g.recent = g.recent[len(g.recent)-200:]
	}
	return l
}

// gunzipPrefix inflates what it can of b.
func gunzipPrefix(t *testing.T, b []byte) (string, error) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(zr)
	return string(out), err
}

// The line compressor against the text it stands for: each stream, read
// back by compress/gzip, is exactly the lines written, and every prefix
// up to a flush (align) is exactly the lines before it, as a killed test
// binary's trace must be. Lines are grown over, matched whole and
// written in pieces often.
func TestLZAgainstText(t *testing.T) {
	var grown, whole, fresh, aligns int
	for seed := int64(0); seed < int64(testflag.N(40, 400)); seed++ {
		g := newLineGen(seed)
		c := newLZ()
		var text strings.Builder
		var out []byte
		n := 1 + g.rng.Intn(3000)
		for i := 0; i < n; i++ {
			l := g.next()
			c.write(l, c.next())
			text.Write(l.text)
			if g.rng.Intn(200) == 0 {
				c.align()
				out = append(out, c.z.out...)
				c.z.out = c.z.out[:0]
				got, err := gunzipPrefix(t, out)
				if !errors.Is(err, io.ErrUnexpectedEOF) || got != text.String() {
					t.Fatalf("seed %d: the prefix at line %d reads %d bytes (%v), want %d", seed, i, len(got), err, text.Len())
				}
				aligns++
			}
		}
		c.close()
		out = append(out, c.z.out...)
		got, err := gunzipPrefix(t, out)
		if err != nil || got != text.String() {
			t.Fatalf("seed %d: the stream reads %d bytes (%v), want %d", seed, len(got), err, text.Len())
		}
		grown, whole, fresh = grown+c.grown, whole+c.whole, fresh+c.fresh
	}
	for name, k := range map[string]int{"grown": grown, "whole": whole, "fresh": fresh, "aligned": aligns} {
		if k < 100 {
			t.Errorf("lines %s: %d, want them often", name, k)
		}
	}
}

// The CRC of a line from any state, from its CRC from zero and the
// tables of its length, against hash/crc32 run over it.
func TestCRCShift(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	m := shifts{}
	for i := 0; i < testflag.N(2000, 20000); i++ {
		b := make([]byte, rng.Intn(600))
		rng.Read(b)
		s := rng.Uint32()
		want := ^crc32.Update(^s, crc32.IEEETable, b)
		if got := m.of(len(b)).apply(s) ^ crc0(b); got != want {
			t.Fatalf("len %d from %08x: %08x, want %08x", len(b), s, got, want)
		}
	}
}
