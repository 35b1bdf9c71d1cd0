//go:build go1.21

package rt

import "hash/crc32"

// The gzip trailer holds the CRC-32 of the whole text, which the encoder
// never writes out byte by byte (lz.go). CRC-32 is linear: run over a
// line L of n bytes from the state s (before its final inversion), it
// ends in shift_n(s) ^ crc0(L), where crc0(L) is L's run from state 0
// and shift_n is what n zero bytes do to a state, a linear map of 32
// bits. So each line keeps crc0 and the tables of shift for its length,
// and a line costs four table lookups, however long it is.

// shift is shift_n as four tables, one per byte of the state.
type shift [4][256]uint32

// crc0 runs the CRC over b from state 0 (no inversions).
func crc0(b []byte) uint32 {
	return ^crc32.Update(^uint32(0), crc32.IEEETable, b)
}

// apply is shift_n(s).
func (t *shift) apply(s uint32) uint32 {
	return t[0][byte(s)] ^ t[1][byte(s>>8)] ^ t[2][byte(s>>16)] ^ t[3][s>>24]
}

// zeros runs the CRC over n zero bytes from state s (no inversions).
func zeros(s uint32, n int) uint32 {
	for ; n > 0; n-- {
		s = crc32.IEEETable[byte(s)] ^ s>>8
	}
	return s
}

// shifts are the tables by length, made when a line of that length is
// first met; at most maxShifts of them (a megabyte).
type shifts map[int]*shift

const maxShifts = 256

func (m shifts) of(n int) *shift {
	if t := m[n]; t != nil {
		return t
	}
	if len(m) >= maxShifts { // lines of many lengths: make them again
		clear(m)
	}
	t := new(shift)
	for k := 0; k < 4; k++ {
		for bit := 0; bit < 8; bit++ {
			t[k][1<<bit] = zeros(1<<(8*k+bit), n)
		}
		for v := 3; v < 256; v++ {
			if low := v & -v; low != v {
				t[k][v] = t[k][low] ^ t[k][v^low]
			}
		}
	}
	m[n] = t
	return t
}
