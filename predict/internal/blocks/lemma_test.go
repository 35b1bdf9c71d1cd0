package blocks

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict/internal/hb"
	"github.com/stretchr/testify/require"
)

// The patterns are exactly the unserializable interleavings of two
// transactions: for random transactions t and u and a random interleaving
// σ of them (no locks, no forks), σ is view-equivalent to t·u or u·t, by
// the definition applied literally (pairSerial), iff none of the
// patterns the block test emits has its two orders in σ.
func TestPatternsAreTheUnserializableInterleavings(t *testing.T) {
	// The 2v-blocks of small contents are built and shared, those of big
	// ones made on the fly: every content small, some big, all big.
	for _, small := range []int{16, 3, 0} {
		t.Run(fmt.Sprint(small), func(t *testing.T) {
			defer func(s int) { smallIRFW = s }(smallIRFW)
			smallIRFW = small
			checkPatterns(t)
		})
	}
}

func checkPatterns(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	serial, not := 0, 0
	for range testflag.N(20000, 200000) {
		c, d := randomContent(r), randomContent(r)
		sigma := interleave(r, len(c.Acc), len(d.Acc))
		want := pairSerial(c, d, sigma)
		got := !anyPatternIn(c, d, sigma)
		require.Equal(t, want, got, "t=%v u=%v σ=%v", c.Acc, d.Acc, sigma)
		if want {
			serial++
		} else {
			not++
		}
	}
	require.Greater(t, serial, 1000)
	require.Greater(t, not, 1000)
}

// randomContent is a transaction of 1 to 5 accesses of 1 to 3 variables.
func randomContent(r *rand.Rand) *Content {
	n, vars := 1+r.IntN(5), 1+r.IntN(3)
	acc := make([]Access, n)
	for i := range acc {
		acc[i] = Access{Var: int32(r.IntN(vars)), Write: r.IntN(2) == 0, Off: int64(i + 1)}
	}
	return newContent(acc, nil)
}

// interleave is a random order of the accesses of two transactions of n
// and m accesses: each entry is 0 for t's next, 1 for u's next.
func interleave(r *rand.Rand, n, m int) []int {
	out := make([]int, 0, n+m)
	for n > 0 || m > 0 {
		if m == 0 || n > 0 && r.IntN(2) == 0 {
			out, n = append(out, 0), n-1
		} else {
			out, m = append(out, 1), m-1
		}
	}
	return out
}

// pairSerial is σ view-equivalent to t·u or to u·t: every read reads from
// the same write (or the initial value) and every variable has the same
// final write.
func pairSerial(c, d *Content, sigma []int) bool {
	tu := make([]int, 0, len(sigma))
	for range c.Acc {
		tu = append(tu, 0)
	}
	for range d.Acc {
		tu = append(tu, 1)
	}
	ut := append(append([]int(nil), tu[len(c.Acc):]...), tu[:len(c.Acc)]...)
	v := views(c, d, sigma)
	return v == views(c, d, tu) || v == views(c, d, ut)
}

// views is what a sequence reads and writes last, as a comparable string:
// per access of t and u (by side and index) the write it reads from, then
// per variable its last write.
func views(c, d *Content, seq []int) string {
	type ref struct{ side, i int }
	last := map[int32]ref{}
	from := map[ref]ref{}
	next := [2]int{}
	for _, side := range seq {
		ct := c
		if side == 1 {
			ct = d
		}
		i := next[side]
		next[side]++
		a := ct.Acc[i]
		if a.Write {
			last[a.Var] = ref{side, i}
			continue
		}
		w, ok := last[a.Var]
		if !ok {
			w = ref{-1, -1}
		}
		from[ref{side, i}] = w
	}
	out := ""
	for k := range 2 {
		ct := c
		if k == 1 {
			ct = d
		}
		for i := range ct.Acc {
			if w, ok := from[ref{k, i}]; ok {
				out += string(rune('a'+w.side+1)) + string(rune('0'+w.i)) + ","
			}
		}
	}
	for v := int32(0); v < 3; v++ {
		if w, ok := last[v]; ok {
			out += "|" + string(rune('0'+v)) + string(rune('a'+w.side)) + string(rune('0'+w.i))
		}
	}
	return out
}

// anyPatternIn reports that some instance the test emits for t and u
// (both ways round) has its two orders in σ.
func anyPatternIn(c, d *Content, sigma []int) bool {
	pos := [2][]int{}
	for k, side := range sigma {
		pos[side] = append(pos[side], k)
	}
	c.Txns, d.Txns = []int32{0}, []int32{0}
	ix := &Index{Threads: []*Thread{{Edges: 9, epochStart: []int64{0}, Contents: []*Content{c}},
		{Edges: 9, epochStart: []int64{0}, Contents: []*Content{d}}}, fj: hb.NewFJ(2)}
	found := false
	f := &filter{ix: ix, emit: func(in Instance) bool {
		x, y := int(in.X), int(in.Y)
		if pos[x][in.A0] < pos[y][in.A1] && pos[y][in.B1] < pos[x][in.B0] {
			found = true
		}
		return true
	}}
	f.pairs()
	return found
}
