//go:build go1.21

package rt

import (
	"encoding/binary"
	"math/bits"
)

// The trace is mostly lines it has written before: the same thread at
// the same place doing the same thing to the same variable. So the
// compressor (lz) matches whole lines, not bytes: a line seen within the
// last 32 KiB of text is one deflate match back to it, and when the next
// line also follows its own earlier copy the match grows over it (up to
// whole runs of lines, 258 bytes a token). A line not seen that recently
// is written against a similar line (the last one its goroutine, else
// any, made at its location, usually the same event on the object
// before): matches
// for the bytes they share, literals for the numbers that differ (an
// object's, an index). No byte is hashed or searched, so a line costs
// about as much as a table lookup.

// line is one distinct line of text, made by the encoder.
type line struct {
	text  []byte
	last  int64 // where it last started in the text; -1: not yet
	lastN int64 // the line number it had then
	crc0  uint32
	shift *shift // crc.go
	like  *line  // a line made before at its place in the code, or nil
	key   rawKey // the record key it is cached under
}

// recentLines is how many of the last lines lz remembers, to see whether
// a match can grow over the next one: a match that copies lines further
// back ends with its line.
const recentLines = 1 << 10

type lz struct {
	z      zstream
	pos    int64 // length of the text so far
	n      int64 // lines so far
	recent *[recentLines]*line
	// the pending match: mLen bytes at distance mDist; mSrc is the line
	// number of the last line it copies (-1: it ends within a line)
	mLen, mDist int
	mSrc        int64
	// how the lines went: grown over by the pending match, matched
	// whole, written against a similar line (for the tests)
	grown, whole, fresh int
}

func newLZ() lz {
	c := lz{recent: new([recentLines]*line), mSrc: -1}
	c.z.header()
	return c
}

// write appends one line to the text; next is c.next().
func (c *lz) write(l, next *line) {
	if l == next {
		c.grow(l)
		return
	}
	if l.last >= 0 && c.pos-l.last <= window && len(l.text) >= minMatch {
		c.flushMatch()
		c.mLen, c.mDist, c.mSrc = len(l.text), int(c.pos-l.last), l.lastN
		c.whole++
	} else {
		c.fresh++
		c.against(l)
	}
	c.advance(l)
}

// growOver grows the pending match over the line of record r of kind k
// if that is the line it copies next; it reports whether it did.
func (c *lz) growOver(r *record, k kind) bool {
	l := c.next()
	if l == nil || !l.key.is(r, k) {
		return false
	}
	c.grow(l)
	return true
}

// grow appends the line the pending match copies next (next()): the
// match grows over it.
func (c *lz) grow(l *line) {
	c.mLen += len(l.text)
	c.mSrc++
	c.grown++
	c.advance(l)
}

// advance accounts for line l, just written.
func (c *lz) advance(l *line) {
	l.last, l.lastN = c.pos, c.n
	c.recent[uint64(c.n)%recentLines] = l
	c.pos += int64(len(l.text))
	c.n++
	c.z.add(l)
}

// next is the line the pending match grows over if it comes next: the
// line after the last one it copies. nil if none.
func (c *lz) next() *line {
	next := c.mSrc + 1
	if c.mSrc < 0 || next >= c.n || c.n-next > recentLines {
		return nil
	}
	return c.recent[uint64(next)%recentLines]
}

// against writes l as a run of matches into the similar line l.like and
// literals: the lines differ in numbers (an object's, an index), so where
// they differ the digits of both are skipped, l's written as literals,
// and the rest matched again. Where they differ otherwise (another op or
// variable at the location), what is left of both is matched from its
// end (the location), and what is between is literals.
func (c *lz) against(l *line) {
	t, like := l.text, l.like
	if like == nil || like.last < 0 || c.pos-like.last > window {
		c.flushMatch()
		c.z.literals(t)
		return
	}
	u := like.text
	i, j := 0, 0
	for i < len(t) {
		start := i
		n := same(t[i:], u[j:])
		i, j = i+n, j+n
		c.copy(i-start, int(c.pos+int64(i)-like.last-int64(j)), t[start:i])
		start = i
		for i < len(t) && digit(t[i]) {
			i++
		}
		for j < len(u) && digit(u[j]) {
			j++
		}
		if i == start && i < len(t) && (j == len(u) || t[i] != u[j]) {
			c.ends(t[i:], u[j:], int(c.pos+int64(len(t))-like.last-int64(len(u))))
			break
		}
		if i > start {
			c.flushMatch()
			c.z.literals(t[start:i])
		}
	}
	c.mSrc = -1 // the match ends within a line
}

// ends writes t as literals but for the bytes it ends with as u does,
// which it writes as a match at distance d (that of their ends).
func (c *lz) ends(t, u []byte, d int) {
	n := 0
	for n < len(t) && n < len(u) && t[len(t)-1-n] == u[len(u)-1-n] {
		n++
	}
	c.flushMatch()
	c.z.literals(t[:len(t)-n])
	c.copy(n, d, t[len(t)-n:])
}

func digit(b byte) bool { return b-'0' < 10 }

// same is how many bytes t and u begin with alike, compared eight at a
// time.
func same(t, u []byte) int {
	n := 0
	for len(t)-n >= 8 && len(u)-n >= 8 {
		if x := binary.LittleEndian.Uint64(t[n:]) ^ binary.LittleEndian.Uint64(u[n:]); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for n < len(t) && n < len(u) && t[n] == u[n] {
		n++
	}
	return n
}

// copy writes n bytes (b) as a match at distance d, grown from the
// pending one if that copies from the same distance, or as literals when
// too short or too far.
func (c *lz) copy(n, d int, b []byte) {
	switch {
	case n == 0:
	case n < minMatch || d < 1 || d > window:
		c.flushMatch()
		c.z.literals(b)
	case c.mLen > 0 && c.mDist == d:
		c.mLen += n
	default:
		c.flushMatch()
		c.mLen, c.mDist = n, d
	}
}

// flushMatch writes the pending match.
func (c *lz) flushMatch() {
	if c.mLen > 0 {
		c.z.copyOf(c.mLen, c.mDist)
		c.mLen = 0
	}
	c.mSrc = -1
}

// align writes out everything so far (zstream.align).
func (c *lz) align() {
	c.flushMatch()
	c.z.align()
}

// forget drops the recent lines (their lines are about to be dropped):
// the lines after it start afresh.
func (c *lz) forget() {
	c.flushMatch()
	*c.recent = [recentLines]*line{}
}

// close ends the stream.
func (c *lz) close() {
	c.flushMatch()
	c.z.close()
}
