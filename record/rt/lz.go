//go:build go1.21

package rt

// The trace is mostly lines it has written before: the same thread at
// the same place doing the same thing to the same variable. So the
// compressor (lz) matches whole lines, not bytes: a line seen within the
// last 32 KiB of text is one deflate match back to it, and when the next
// line also follows its own earlier copy the match grows over it (up to
// whole runs of lines, 258 bytes a token). A line not seen that recently
// is written piece by piece (its thread and op, the parts of its
// argument, its location), each piece a match if some line had it
// recently, else literals. No byte is hashed or searched, so a line
// costs about as much as a table lookup.

// line is one distinct line of text, interned by the encoder.
type line struct {
	text   []byte
	last   int64 // where it last started in the text; -1: not yet
	lastN  int64 // the line number it had then
	crc0   uint32
	shift  *shift // crc.go
	pieces []piece
	key    rawKey // the first record key it was cached under
}

// piece is a part of a line's text: text[off:off+n], whose last place in
// the text seg knows.
type piece struct {
	seg    *seg
	off, n int32
}

// seg is a piece's text, wherever it is: it was last written as part of
// line at off, so it is in the text wherever that line was last written
// (a line written whole does not update its pieces' segs: the segs find
// it through its last place).
type seg struct {
	line *line
	off  int32
}

// last is where s was last written, -1 if nowhere.
func (s *seg) last() int64 {
	if s.line == nil || s.line.last < 0 {
		return -1
	}
	return s.line.last + int64(s.off)
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
	// whole, written piece by piece (for the tests)
	grown, whole, fresh int
}

func newLZ() lz {
	c := lz{recent: new([recentLines]*line), mSrc: -1}
	c.z.header()
	return c
}

// write appends one line to the text; next is c.next().
func (c *lz) write(l, next *line) {
	switch {
	case l == next:
		// The line after the one copied last is this line: the match grows.
		c.mLen += len(l.text)
		c.mSrc++
		c.grown++
	case l.last >= 0 && c.pos-l.last <= window && len(l.text) >= minMatch:
		c.flushMatch()
		c.mLen, c.mDist, c.mSrc = len(l.text), int(c.pos-l.last), l.lastN
		c.whole++
	default:
		c.pieces(l)
		c.fresh++
	}
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

// pieces writes l piece by piece: a match for each piece seen within the
// window, literals for the others.
func (c *lz) pieces(l *line) {
	at := c.pos
	for _, p := range l.pieces {
		last := p.seg.last()
		d := int(at - last)
		switch {
		case last < 0 || d > window || p.n < minMatch:
			c.flushMatch()
			c.z.literals(l.text[p.off : p.off+p.n])
		case c.mLen > 0 && c.mDist == d:
			c.mLen += int(p.n)
		default:
			c.flushMatch()
			c.mLen, c.mDist = int(p.n), d
		}
		c.mSrc = -1
		at += int64(p.n)
	}
	for _, p := range l.pieces { // l is where its segs are now
		p.seg.line, p.seg.off = l, p.off
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
