//go:build go1.21

package rt

import (
	"encoding/binary"
	"math/bits"
)

// zstream writes a gzip stream (RFC 1952) of deflate blocks with the
// fixed Huffman codes (RFC 1951 §3.2.6). The encoder above it (lz.go)
// chooses the matches itself, a line at a time, so that no byte of the
// trace is searched: this layer only packs literals and matches into bits.
// The output gathers in out, which the caller writes to the file.
type zstream struct {
	out  []byte
	acc  uint64 // bits not yet in out, the first in the low bits
	nacc uint
	crc  uint32 // of the text so far, before its final inversion (crc.go)
	size uint32 // its length mod 2^32
}

// The fixed codes, bit-reversed (deflate sends a Huffman code's high bit
// first; the bit buffer fills from the low end), joined to their extra
// bits where there are some.
var (
	litCode [256]uint16 // code of each literal byte
	litLen  [256]uint8
	lenBits [259]uint32 // code and extra bits of each match length 3…258
	lenN    [259]uint8
	distTab [512]uint8 // distance code of d-1 (<256), else of 256+(d-1)>>7
)

var (
	lenBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lenExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	dBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	dExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

const (
	maxMatch = 258
	minMatch = 3
	window   = 1 << 15 // the farthest a match may reach back
)

// fixedCode is the fixed code of literal/length symbol s, reversed, and
// its length.
func fixedCode(s int) (uint32, uint8) {
	var c, n int
	switch {
	case s < 144:
		c, n = 0x30+s, 8
	case s < 256:
		c, n = 0x190+s-144, 9
	case s < 280:
		c, n = s-256, 7
	default:
		c, n = 0xc0+s-280, 8
	}
	return uint32(bits.Reverse16(uint16(c)) >> (16 - n)), uint8(n)
}

func init() {
	for b := 0; b < 256; b++ {
		c, n := fixedCode(b)
		litCode[b], litLen[b] = uint16(c), n
	}
	for k, base := range lenBase {
		c, n := fixedCode(257 + k)
		for l := int(base); l <= maxMatch && (k+1 == len(lenBase) || l < int(lenBase[k+1])); l++ {
			lenBits[l] = c | uint32(l-int(base))<<n
			lenN[l] = n + lenExtra[k]
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

// header starts the gzip member and the first block.
func (z *zstream) header() {
	// ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=unknown
	z.out = append(z.out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	z.crc = ^uint32(0)
	z.blockStart(false)
}

// blockStart opens a block of fixed codes.
func (z *zstream) blockStart(final bool) {
	if final {
		z.put(3, 3) // BFINAL=1, BTYPE=01
	} else {
		z.put(2, 3) // BFINAL=0, BTYPE=01
	}
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

// literals writes the bytes of t as literals.
func (z *zstream) literals(t []byte) {
	for _, b := range t {
		z.put(uint32(litCode[b]), litLen[b])
	}
}

// match writes one match of length l (3…258) at distance d (1…32768).
func (z *zstream) match(l, d int) {
	z.put(lenBits[l], lenN[l])
	var k uint8
	if d-1 < 256 {
		k = distTab[d-1]
	} else {
		k = distTab[256+(d-1)>>7]
	}
	code := uint32(bits.Reverse8(k) >> 3)
	z.put(code|uint32(d-int(dBase[k]))<<5, 5+dExtra[k])
}

// copyOf writes a match of any length l ≥ 3 at distance d, in pieces of
// at most 258 bytes and at least 3.
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

// align ends the current block and writes an empty stored block, which
// brings the stream to a byte boundary: everything before it can be
// inflated from the bytes in out (what zlib calls a sync flush). A new
// block follows.
func (z *zstream) align() {
	z.put(0, 7)   // end of block (symbol 256)
	z.put(0, 3)   // BFINAL=0, BTYPE=00: stored
	z.byteAlign() // a stored block's length starts on a byte
	z.out = append(z.out, 0, 0, 0xff, 0xff)
	z.blockStart(false)
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

// close ends the stream: the current block, an empty final block and the
// trailer (CRC-32 and length of the text).
func (z *zstream) close() {
	z.put(0, 7)
	z.blockStart(true)
	z.put(0, 7)
	z.byteAlign()
	z.out = binary.LittleEndian.AppendUint32(z.out, ^z.crc)
	z.out = binary.LittleEndian.AppendUint32(z.out, z.size)
}
