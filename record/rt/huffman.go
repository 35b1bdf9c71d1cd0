//go:build go1.21

package rt

import (
	"cmp"
	"math/bits"
	"slices"
)

// codeLengths sets the lengths of an optimal prefix code for symbols of
// the given frequencies, none longer than maxLen: Huffman's, its longest
// codes shortened as miniz does (count the codes of each length, those
// too long as maxLen, then lengthen shorter ones until the code is
// complete again), the longest lengths going to the rarest symbols. A
// symbol that does not occur gets 0, unless fewer than two do: every code
// has at least two symbols, so that it is complete (inflaters refuse some
// codes that are not). The alphabet has two symbols at least.
func codeLengths(freq []uint32, lengths []uint8, maxLen int) {
	clear(lengths)
	var buf [numLit]leaf // the largest alphabet's: no allocation
	leaves := buf[:0]
	for s, f := range freq {
		if f > 0 {
			leaves = append(leaves, leaf{uint64(f), s})
		}
	}
	for s := 0; len(leaves) < 2; s++ {
		if freq[s] == 0 {
			leaves = append(leaves, leaf{0, s})
		}
	}
	slices.SortFunc(leaves, func(a, b leaf) int {
		if a.f != b.f {
			return cmp.Compare(a.f, b.f)
		}
		return cmp.Compare(a.s, b.s)
	})
	count := depths(leaves, maxLen)
	limit(count[:], maxLen)
	i := 0
	for l := maxLen; l >= 1; l-- {
		for k := 0; k < count[l]; k++ {
			lengths[leaves[i].s] = uint8(l)
			i++
		}
	}
}

// leaf is a symbol of a code and its frequency.
type leaf struct {
	f uint64
	s int
}

// depths counts the leaves of each depth in Huffman's tree of leaves
// (sorted by frequency), those deeper than maxLen as maxLen. Two queues:
// the leaves, and the inner nodes in the order made (their weights do not
// decrease); each step joins the two lightest.
func depths(leaves []leaf, maxLen int) (count [32]int) {
	n := len(leaves)
	var wbuf [2 * numLit]uint64
	var pbuf, dbuf [2 * numLit]int
	weight, parent, depth := wbuf[:2*n-1], pbuf[:2*n-1], dbuf[:2*n-1]
	for i, l := range leaves {
		weight[i] = l.f
	}
	li, ii := 0, n
	pick := func(made int) int {
		if li < n && (ii >= made || weight[li] <= weight[ii]) {
			li++
			return li - 1
		}
		ii++
		return ii - 1
	}
	for made := n; made < 2*n-1; made++ {
		a := pick(made)
		b := pick(made)
		weight[made] = weight[a] + weight[b]
		parent[a], parent[b] = made, made
	}
	depth[2*n-2] = 0 // the root
	for i := 2*n - 3; i >= 0; i-- {
		depth[i] = depth[parent[i]] + 1
		if i < n {
			count[min(depth[i], maxLen)]++
		}
	}
	return count
}

// limit makes the counts of codes of each length those of a complete
// code again after the longest were cut to maxLen: while Kraft's sum is
// over one, it drops a code of maxLen and splits a shorter one in two.
func limit(count []int, maxLen int) {
	total := 0
	for l := 1; l <= maxLen; l++ {
		total += count[l] << (maxLen - l)
	}
	for ; total > 1<<maxLen; total-- {
		count[maxLen]--
		for l := maxLen - 1; l > 0; l-- {
			if count[l] > 0 {
				count[l]--
				count[l+1] += 2
				break
			}
		}
	}
}

// canonical sets the canonical code of each symbol of the given lengths
// (RFC 1951 §3.2.2), bit-reversed: deflate sends a code's high bit first,
// the bit buffer fills from the low end.
func canonical(lengths []uint8, codes []uint16) {
	var count, next [16]uint16
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	code := uint16(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for s, l := range lengths {
		if l != 0 {
			codes[s] = bits.Reverse16(next[l]) >> (16 - l)
			next[l]++
		}
	}
}
