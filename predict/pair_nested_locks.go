package predict

import (
	"cmp"
	"slices"
)

// A thread's locks under nested locking, as the linear two-thread decision
// (pair_nested.go) needs them: the stack of critical sections it is in, and
// for each section the locks acquired inside it so far, with the thread's
// acquisition count at each. From these come the acquisition histories of
// Kahlon, Ivančić and Gupta: backward at an access (the locks acquired
// inside a held section before it) and forward after it (those acquired
// inside a held section after it, known once the section is released).

// nestSection is one critical section on a thread's stack.
type nestSection struct {
	lock  int32
	acq   int64           // the edge of its acquire
	inner []nestAcq       // each lock acquired inside it so far, once, in order of first acquire
	at    map[int32]int32 // inner's index of each lock, once inner is long
}

// nestAcq is a lock acquired inside a section and how many acquisitions
// the thread had made before its last acquire there. Acquisition
// histories are sets of locks, so a lock acquired again inside a section
// adds nothing to them: keeping it once keeps the histories, and so the
// contexts, no longer than the locks, where a list of acquires grows with
// the section (quadratic in a long section that takes an inner lock in a
// loop).
type nestAcq struct {
	lock int32
	n    int64
}

// add notes lock l acquired inside sec after n acquisitions of the
// thread; it reports whether l is new to sec.
func (sec *nestSection) add(l int32, n int64) bool {
	if i, ok := sec.find(l); ok {
		sec.inner[i].n = n
		return false
	}
	sec.inner = append(sec.inner, nestAcq{l, n})
	switch k := len(sec.inner); {
	case k == 9: // a map from now on
		sec.at = make(map[int32]int32, 16)
		for i, a := range sec.inner {
			sec.at[a.lock] = int32(i)
		}
	case k > 9:
		sec.at[l] = int32(k - 1)
	}
	return true
}

// find is the index of l in sec.inner.
func (sec *nestSection) find(l int32) (int, bool) {
	if sec.at != nil {
		i, ok := sec.at[l]
		return int(i), ok
	}
	for i, a := range sec.inner {
		if a.lock == l {
			return i, true
		}
	}
	return 0, false
}

// nestThread is one thread's locks in a pass.
type nestThread struct {
	stack    []*nestSection
	lastFree int64 // the last position (edges taken) at which it held no lock
	acqs     int64 // acquisitions so far
}

// acquire takes lock l at edge at. It costs a look at every section held
// (work, which the passes count towards their limits: it is quadratic in
// the nesting depth), and adds the entries new to their inner lists.
func (nt *nestThread) acquire(l int32, at int64) (work, added int64) {
	if len(nt.stack) == 0 {
		nt.lastFree = at
	}
	for _, sec := range nt.stack {
		if sec.add(l, nt.acqs) {
			added++
		}
	}
	work = int64(len(nt.stack))
	nt.stack = append(nt.stack, &nestSection{lock: l, acq: at})
	nt.acqs++
	return work, added
}

// innerLen is how many pairs backward would list.
func (nt *nestThread) innerLen() int {
	n := 0
	for _, sec := range nt.stack {
		n += len(sec.inner)
	}
	return n
}

// release lets go of lock l at edge at; it reports false when l is not
// the innermost lock held (the locking is not nested).
func (nt *nestThread) release(l int32, at int64) bool {
	n := len(nt.stack)
	if n == 0 || nt.stack[n-1].lock != l {
		return false
	}
	nt.stack = nt.stack[:n-1]
	if n == 1 {
		nt.lastFree = at + 1
	}
	return true
}

// freeAt is the thread's last lock-free position at position pos (its
// current one).
func (nt *nestThread) freeAt(pos int64) int64 {
	if len(nt.stack) == 0 {
		return pos
	}
	return nt.lastFree
}

// held is the locks held, outermost first.
func (nt *nestThread) held() []int32 {
	out := make([]int32, len(nt.stack))
	for i, sec := range nt.stack {
		out[i] = sec.lock
	}
	return out
}

// backward is the backward acquisition history at the current position:
// the pairs (k1, k2) with k1 held and k2 acquired inside k1's section.
func (nt *nestThread) backward() [][2]int32 {
	var out [][2]int32
	for _, sec := range nt.stack {
		for _, a := range sec.inner {
			out = append(out, [2]int32{sec.lock, a.lock})
		}
	}
	return sortPairs(out)
}

// forward is the forward acquisition history of an access made when the
// thread had made acqs acquisitions and held the sections secs, once they
// are all released: the pairs (k2, k1) with k2 held at the access and k1
// acquired inside k2's section after it.
func forward(secs []*nestSection, acqs int64) [][2]int32 {
	var out [][2]int32
	for _, sec := range secs {
		for _, a := range sec.inner {
			if a.n >= acqs {
				out = append(out, [2]int32{sec.lock, a.lock})
			}
		}
	}
	return sortPairs(out)
}

// sortPairs sorts a history (a set: a thread holds a lock once, and a
// section lists each inner lock once), so that one content is one context
// and hasPair a binary search.
func sortPairs(ps [][2]int32) [][2]int32 {
	slices.SortFunc(ps, comparePair)
	return ps
}

func comparePair(a, b [2]int32) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

// hasPair reports whether the sorted history pairs holds (a, b).
func hasPair(pairs [][2]int32, a, b int32) bool {
	_, ok := slices.BinarySearchFunc(pairs, [2]int32{a, b}, comparePair)
	return ok
}

func hasLock(set []int32, l int32) bool {
	for _, m := range set {
		if m == l {
			return true
		}
	}
	return false
}
