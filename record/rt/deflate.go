//go:build go1.21

package rt

import "encoding/binary"

// zstream writes a gzip stream (RFC 1952) of deflate blocks with Huffman
// codes made for each block (RFC 1951 §3.2.7). The encoder above it
// (lz.go) chooses the matches itself, a line at a time, so that no byte
// of the trace is searched: this layer gathers a block's literals and
// matches as tokens, counts their symbols, and when the block is full,
// flushed or closed, writes its codes and its tokens in bits. The output
// gathers in out, which the caller writes to the file.
type zstream struct {
	out   []byte
	acc   uint64 // bits not yet in out, the first in the low bits
	nacc  uint
	crc   uint32 // of the text so far, before its final inversion (crc.go)
	size  uint32 // its length mod 2^32
	toks  []uint32
	lfreq [numLit]uint32 // the block's literal/length symbols
	dfreq [numDist]uint32
	syms  []clSym // the block's code lengths, run-length coded
}

// clSym is a symbol of the code-length code, with its extra bits and
// their number.
type clSym struct{ s, extra, n uint8 }

const (
	maxMatch  = 258
	minMatch  = 3
	window    = 1 << 15 // the farthest a match may reach back
	numLit    = 286     // literal/length symbols: 0…255, end of block, lengths
	numDist   = 30
	endBlock  = 256
	maxBits   = 15 // the longest code of a literal, length or distance
	blockToks = 1 << 14
	// A token is a literal byte, or matchTok | (length-3)<<15 | distance-1.
	matchTok = 1 << 31
)

var (
	lenBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lenExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	dBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	dExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	lenCode  [maxMatch + 1]uint8 // the length symbol of each match length, less 257
	distTab  [512]uint8          // distance code of d-1 (<256), else of 256+(d-1)>>7
	// The order in which a block gives its code-length code's lengths.
	clOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

func init() {
	for k, base := range lenBase {
		for l := int(base); l <= maxMatch && (k+1 == len(lenBase) || l < int(lenBase[k+1])); l++ {
			lenCode[l] = uint8(k)
		}
	}
	for k, base := range dBase {
		for d := int(base); d <= window && (k+1 == len(dBase) || d < int(dBase[k+1])); d++ {
			if d-1 < 256 {
				distTab[d-1] = uint8(k)
			} else {
				distTab[256+(d-1)>>7] = uint8(k)
			}
		}
	}
}

func distCode(d int) uint8 {
	if d-1 < 256 {
		return distTab[d-1]
	}
	return distTab[256+(d-1)>>7]
}

// header starts the gzip member.
func (z *zstream) header() {
	// ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=unknown
	z.out = append(z.out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	z.crc = ^uint32(0)
}

// put appends the n low bits of b (n ≤ 32).
func (z *zstream) put(b uint32, n uint8) {
	z.acc |= uint64(b) << z.nacc
	z.nacc += uint(n)
	if z.nacc >= 32 {
		z.out = binary.LittleEndian.AppendUint32(z.out, uint32(z.acc))
		z.acc >>= 32
		z.nacc -= 32
	}
}

// literals adds the bytes of t as literals.
func (z *zstream) literals(t []byte) {
	for _, b := range t {
		z.toks = append(z.toks, uint32(b))
		z.lfreq[b]++
	}
	if len(z.toks) >= blockToks {
		z.block(false)
	}
}

// match adds one match of length l (3…258) at distance d (1…32768).
func (z *zstream) match(l, d int) {
	z.toks = append(z.toks, matchTok|uint32(l-minMatch)<<15|uint32(d-1))
	z.lfreq[endBlock+1+int(lenCode[l])]++
	z.dfreq[distCode(d)]++
	if len(z.toks) >= blockToks {
		z.block(false)
	}
}

// copyOf adds a match of any length l ≥ 3 at distance d, in pieces of at
// most 258 bytes and at least 3.
func (z *zstream) copyOf(l, d int) {
	for l > maxMatch {
		n := maxMatch
		if l-n < minMatch {
			n = l - minMatch
		}
		z.match(n, d)
		l -= n
	}
	z.match(l, d)
}

// add accounts for line l, which the last literals and matches stand
// for: the gzip trailer holds the text's CRC and length.
func (z *zstream) add(l *line) {
	z.crc = l.shift.apply(z.crc) ^ l.crc0
	z.size += uint32(len(l.text))
}

// align writes the current block and an empty stored block, which brings
// the stream to a byte boundary: everything before it can be inflated
// from the bytes in out (what zlib calls a sync flush).
func (z *zstream) align() {
	if len(z.toks) > 0 {
		z.block(false)
	}
	z.put(0, 3)   // BFINAL=0, BTYPE=00: stored
	z.byteAlign() // a stored block's length starts on a byte
	z.out = append(z.out, 0, 0, 0xff, 0xff)
}

func (z *zstream) byteAlign() {
	for z.nacc > 0 {
		z.out = append(z.out, byte(z.acc))
		z.acc >>= 8
		if z.nacc < 8 {
			z.nacc = 0
		} else {
			z.nacc -= 8
		}
	}
	z.acc = 0
}

// close ends the stream: the last block (an empty one of deflate's fixed
// codes if there are no tokens) and the trailer (CRC-32 and length of the
// text).
func (z *zstream) close() {
	if len(z.toks) > 0 {
		z.block(true)
	} else {
		z.put(3, 3) // BFINAL=1, BTYPE=01: fixed codes
		z.put(0, 7) // end of block
	}
	z.byteAlign()
	z.out = binary.LittleEndian.AppendUint32(z.out, ^z.crc)
	z.out = binary.LittleEndian.AppendUint32(z.out, z.size)
}

// block writes the tokens gathered as one block with codes of its own.
func (z *zstream) block(final bool) {
	z.lfreq[endBlock]++
	var lit [numLit]uint8
	var dist [numDist]uint8
	codeLengths(z.lfreq[:], lit[:], maxBits)
	codeLengths(z.dfreq[:], dist[:], maxBits)
	nlit, ndist := used(lit[:], 257), used(dist[:], 1)
	z.put(b2u(final)|2<<1, 3) // BFINAL, BTYPE=10: codes of the block's own
	z.put(uint32(nlit-257), 5)
	z.put(uint32(ndist-1), 5)
	var both [numLit + numDist]uint8
	copy(both[copy(both[:], lit[:nlit]):], dist[:ndist])
	z.codes(both[:nlit+ndist])
	var lc, dc [numLit]uint16
	canonical(lit[:], lc[:])
	canonical(dist[:], dc[:numDist])
	for _, t := range z.toks {
		if t < matchTok {
			z.put(uint32(lc[t]), lit[t])
			continue
		}
		l, d := int(t>>15&0xff)+minMatch, int(t&0x7fff)+1
		k := lenCode[l]
		z.put(uint32(lc[endBlock+1+int(k)])|uint32(l-int(lenBase[k]))<<lit[endBlock+1+int(k)], lit[endBlock+1+int(k)]+lenExtra[k])
		c := distCode(d)
		z.put(uint32(dc[c])|uint32(d-int(dBase[c]))<<dist[c], dist[c]+dExtra[c])
	}
	z.put(uint32(lc[endBlock]), lit[endBlock])
	z.toks = z.toks[:0]
	z.lfreq, z.dfreq = [numLit]uint32{}, [numDist]uint32{}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// used is how many of the code lengths a block gives: up to the last
// one that is not zero, at least least.
func used(lengths []uint8, least int) int {
	n := len(lengths)
	for n > least && lengths[n-1] == 0 {
		n--
	}
	return n
}

// codes writes the code lengths of a block's two codes, run-length
// coded (runs), themselves in a code of at most 7 bits.
func (z *zstream) codes(lengths []uint8) {
	var freq [19]uint32
	z.syms = runs(z.syms[:0], lengths, &freq)
	var cl [19]uint8
	codeLengths(freq[:], cl[:], 7)
	n := 19
	for n > 4 && cl[clOrder[n-1]] == 0 {
		n--
	}
	z.put(uint32(n-4), 4)
	for _, s := range clOrder[:n] {
		z.put(uint32(cl[s]), 3)
	}
	var cc [19]uint16
	canonical(cl[:], cc[:])
	for _, s := range z.syms {
		z.put(uint32(cc[s.s])|uint32(s.extra)<<cl[s.s], cl[s.s]+s.n)
	}
}

// runs appends to syms the code lengths as symbols of the code-length
// code, counted in freq, run-length coded as zlib does (RFC 1951 §3.2.7:
// 16 repeats the last length 3…6 times, 17 and 18 give 3…10 and 11…138
// zeros).
func runs(syms []clSym, lengths []uint8, freq *[19]uint32) []clSym {
	emit := func(s clSym) {
		syms = append(syms, s)
		freq[s.s]++
	}
	prev, count := -1, 0
	maxCount, minCount := 7, 4
	if lengths[0] == 0 {
		maxCount, minCount = 138, 3
	}
	for n, cur := range lengths {
		next := -1
		if n+1 < len(lengths) {
			next = int(lengths[n+1])
		}
		if count++; count < maxCount && int(cur) == next {
			continue
		}
		switch {
		case count < minCount:
			for ; count > 0; count-- {
				emit(clSym{cur, 0, 0})
			}
		case cur != 0:
			if int(cur) != prev {
				emit(clSym{cur, 0, 0})
				count--
			}
			emit(clSym{16, uint8(count - 3), 2})
		case count <= 10:
			emit(clSym{17, uint8(count - 3), 3})
		default:
			emit(clSym{18, uint8(count - 11), 7})
		}
		count, prev = 0, int(cur)
		switch {
		case next == 0:
			maxCount, minCount = 138, 3
		case int(cur) == next:
			maxCount, minCount = 6, 3
		default:
			maxCount, minCount = 7, 4
		}
	}
	return syms
}
