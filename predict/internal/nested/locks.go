package nested

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// A thread's locks under nested locking, as the linear two-thread decision
// (index.go) needs them: the stack of critical sections it is in, and
// the acquisition histories of Kahlon, Ivančić and Gupta: backward at an
// access (the locks acquired inside a held section before it) and forward
// after it (those acquired inside a held section after it, known once the
// section is released).
//
// Under nested locking these histories are nested: a lock acquired inside
// a held section was acquired inside every section held below it too, and
// one acquired inside a section after an access, inside every section
// released after it. So a history is a depth per inner lock (lockDepth):
// the lock is paired with the first depth sections held. Kept that way, an
// acquire costs a map update instead of a look at every section held, and
// a history is one entry per lock instead of one per lock pair, where
// 10,000 nested locks made 5·10⁷ pairs.

// section is one critical section on a thread's stack.
type section struct {
	lock int32
	acq  int64 // the edge of its acquire
	n    int64 // the thread's acquisitions before its own
	rel  int64 // the thread's acquisitions at its release (MaxInt64 while held)
}

// lockDepth is one lock of a history and how many of the sections held at
// the access (outermost first) it pairs with.
type lockDepth struct {
	lock, depth int32
}

// thread is one thread's locks in a pass.
type thread struct {
	stack    []*section
	lastFree int64 // the last position (edges taken) at which it held no lock
	acqs     int64 // acquisitions so far
	// last is the index of the last acquire of each lock acquired inside
	// the outermost section held, inner those locks in order of first
	// acquire; both are emptied when the thread holds no lock again.
	last  map[int32]int64
	inner []int32
	pos   map[int32]int32 // each held lock's index in stack, once the stack is deep
	// hist (the second pass only) is each inner lock's acquires that some
	// snapshot may ask for (lastBefore): an acquire is kept only when a
	// snapshot was taken since the lock's previous one.
	hist  map[int32][]int64
	snapA int64 // the thread's acquisitions at its last snapshot
}

// posMap is the stack depth from which held locks are found by a map.
const posMap = 8

// acquire takes lock l at edge at. It reports the index of l's previous
// acquire inside the outermost section held (-1: none).
func (nt *thread) acquire(l int32, at int64) (prev int64) {
	prev = -1
	if len(nt.stack) == 0 {
		nt.lastFree = at
	} else {
		if nt.last == nil {
			nt.last = map[int32]int64{}
		}
		p, ok := nt.last[l]
		if ok {
			prev = p
		} else {
			nt.inner = append(nt.inner, l)
		}
		nt.last[l] = nt.acqs
		if nt.hist != nil {
			nt.remember(l)
		}
	}
	nt.stack = append(nt.stack, &section{lock: l, acq: at, n: nt.acqs, rel: math.MaxInt64})
	nt.acqs++
	switch n := len(nt.stack); {
	case n == posMap+1:
		nt.pos = make(map[int32]int32, 2*n)
		for i, sec := range nt.stack {
			nt.pos[sec.lock] = int32(i)
		}
	case n > posMap+1:
		nt.pos[l] = int32(n - 1)
	}
	return prev
}

// remember notes the acquire just made of l in hist.
func (nt *thread) remember(l int32) {
	h := nt.hist[l]
	if n := len(h); n > 0 && h[n-1] >= nt.snapA {
		h[n-1] = nt.acqs // no snapshot since: the previous one is asked for by none
	} else {
		h = append(h, nt.acqs)
	}
	nt.hist[l] = h
}

// lastBefore is the index of l's last acquire inside the outermost
// section before a (a snapshot's acquisitions), -1 if none.
func (nt *thread) lastBefore(l int32, a int64) int64 {
	h := nt.hist[l]
	i := sort.Search(len(h), func(i int) bool { return h[i] >= a })
	if i == 0 {
		return -1
	}
	return h[i-1]
}

// release lets go of lock l at edge at; it reports false when l is not
// the innermost lock held (the locking is not nested).
func (nt *thread) release(l int32, at int64) bool {
	n := len(nt.stack)
	if n == 0 || nt.stack[n-1].lock != l {
		return false
	}
	nt.stack[n-1].rel = nt.acqs
	nt.stack = nt.stack[:n-1]
	if nt.pos != nil {
		delete(nt.pos, l)
		if n-1 <= posMap {
			nt.pos = nil
		}
	}
	if n == 1 {
		nt.lastFree = at + 1
		for _, k := range nt.inner {
			delete(nt.last, k)
			if nt.hist != nil {
				delete(nt.hist, k)
			}
		}
		nt.inner = nt.inner[:0]
	}
	return true
}

// posOf is l's index in the stack, -1 when l is not held.
func (nt *thread) posOf(l int32) int {
	if nt.pos != nil {
		if i, ok := nt.pos[l]; ok {
			return int(i)
		}
		return -1
	}
	for i, sec := range nt.stack {
		if sec.lock == l {
			return i
		}
	}
	return -1
}

// freeAt is the thread's last lock-free position at position pos (its
// current one).
func (nt *thread) freeAt(pos int64) int64 {
	if len(nt.stack) == 0 {
		return pos
	}
	return nt.lastFree
}

// held is the locks held, outermost first.
func (nt *thread) held() []int32 {
	out := make([]int32, len(nt.stack))
	for i, sec := range nt.stack {
		out[i] = sec.lock
	}
	return out
}

// depthBefore is how many sections of secs (outermost first) were
// acquired before the acquire of index n.
func depthBefore(secs []*section, n int64) int {
	return sort.Search(len(secs), func(i int) bool { return secs[i].n >= n })
}

// backward is the backward acquisition history at the current position:
// each lock acquired inside a held section, with how many of the held
// sections it was acquired inside (those acquired before its last acquire).
func (nt *thread) backward() []lockDepth {
	out := make([]lockDepth, 0, len(nt.inner))
	for _, k := range nt.inner {
		if d := depthBefore(nt.stack, nt.last[k]); d > 0 {
			out = append(out, lockDepth{k, int32(d)})
		}
	}
	return sortDepths(out)
}

// forward is the forward acquisition history of an access made inside the
// sections secs, once they are all released: first holds each lock's first
// acquire after the access, and a lock pairs with the sections released
// after that acquire (rel is non-increasing along secs).
func forward(first map[int32]int64, secs []*section) []lockDepth {
	out := make([]lockDepth, 0, len(first))
	for k, c := range first {
		d := sort.Search(len(secs), func(i int) bool { return secs[i].rel <= c })
		if d > 0 {
			out = append(out, lockDepth{k, int32(d)})
		}
	}
	return sortDepths(out)
}

// sortDepths sorts a history by lock, so that one content is one context.
func sortDepths(h []lockDepth) []lockDepth {
	slices.SortFunc(h, func(a, b lockDepth) int { return cmp.Compare(a.lock, b.lock) })
	return h
}

// acq is an acquire of a lock and its index among the thread's.
type acq struct {
	lock int32
	n    int64
}
