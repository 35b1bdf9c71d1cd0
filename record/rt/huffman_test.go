//go:build go1.21

package rt

import (
	"container/heap"
	"math/rand"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
)

type weights []uint64

func (h weights) Len() int           { return len(h) }
func (h weights) Less(i, j int) bool { return h[i] < h[j] }
func (h weights) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *weights) Push(x any)        { *h = append(*h, x.(uint64)) }
func (h *weights) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// huffmanCost is the cost (sum of frequency × length) of a Huffman code
// without a length limit: the sum of the weights of the merges.
func huffmanCost(freq []uint32) uint64 {
	h := &weights{}
	for _, f := range freq {
		if f > 0 {
			heap.Push(h, uint64(f))
		}
	}
	cost := uint64(0)
	for h.Len() > 1 {
		w := heap.Pop(h).(uint64) + heap.Pop(h).(uint64)
		cost += w
		heap.Push(h, w)
	}
	return cost
}

// The code lengths against their definition: a complete prefix code
// (Kraft's sum exactly 1) of at most maxLen bits, a length for each
// symbol that occurs (and for two symbols at least), the rarer symbols
// no shorter, and as cheap as Huffman's code when that fits the limit.
// Skewed frequencies (powers, Fibonacci's) make Huffman's code too long
// often, so the limit is met both ways.
func TestCodeLengths(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	limited, optimal := 0, 0
	for i := 0; i < testflag.N(3000, 30000); i++ {
		freq := make([]uint32, 2+rng.Intn(numLit-1))
		a, b := uint32(1), uint32(1)
		for s := range freq {
			switch rng.Intn(4) {
			case 0: // unused
			case 1:
				freq[s] = uint32(rng.Intn(1000))
			case 2:
				freq[s] = 1 << rng.Intn(24)
			case 3:
				a, b = b, a+b
				freq[s] = a
			}
		}
		maxLen := []int{7, 15}[rng.Intn(2)]
		if len(freq) > 1<<maxLen {
			maxLen = 15
		}
		lengths := make([]uint8, len(freq))
		codeLengths(freq, lengths, maxLen)
		kraft, used, cost := 0, 0, uint64(0)
		for s, l := range lengths {
			if int(l) > maxLen || freq[s] > 0 && l == 0 {
				t.Fatalf("case %d: symbol %d (freq %d) has length %d, limit %d", i, s, freq[s], l, maxLen)
			}
			if l > 0 {
				kraft += 1 << (maxLen - int(l))
				used++
			}
			cost += uint64(freq[s]) * uint64(l)
			for r, m := range lengths {
				if freq[r] < freq[s] && freq[r] > 0 && m < l {
					t.Fatalf("case %d: symbol %d (freq %d) is shorter than %d (freq %d)", i, r, freq[r], s, freq[s])
				}
			}
		}
		if used < 2 || kraft != 1<<maxLen {
			t.Fatalf("case %d: %d codes, Kraft sum %d/%d: not a complete code", i, used, kraft, 1<<maxLen)
		}
		switch best := huffmanCost(freq); {
		case cost < best:
			t.Fatalf("case %d: cost %d below Huffman's %d", i, cost, best)
		case cost == best:
			optimal++
		default:
			limited++
		}
	}
	if limited < 100 || optimal < 100 {
		t.Errorf("%d codes limited, %d as Huffman's: the test exercises too little", limited, optimal)
	}
}
