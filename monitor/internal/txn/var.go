package txn

import "slices"

// Var is a variable's record: its last write and, one per thread, the
// reads since that write, each with its thread (which the monitor reads
// to rule out a record without visiting its node). It is one cache line:
// the first read lives in the record (most variables have at most one
// reader between writes), the others in Rest. Invariant: R0 is empty (nil
// Txn) only if Rest is, and no read names a nil transaction — a garbage
// read is dropped, not recorded. (The monitor may clear
// reads it finds garbage, but only for a write, which then empties the
// reads anyway.) A record may be stale (Src.Stale).
type Var struct {
	W    Src
	R0   Src
	WT   int32 // W's thread
	R0T  int32 // R0's thread
	Rest []Read
}

// Read is a read since the last write, other than the first, with its
// thread.
type Read struct {
	Src
	Thread int32
}

// A read's slot: 0 is R0, 1+i is Rest[i].

// Find is the slot of thread t's read, or -1; ix, if not nil, indexes
// Rest (ReadIndex).
func (v *Var) Find(t int32, ix ReadIndex) int {
	if v.R0.Txn == nil {
		return -1
	}
	if v.R0T == t {
		return 0
	}
	if ix != nil {
		p, ok := ix.At(t, v.Rest)
		if !ok {
			p, _ = ix.At(t, v.Rest)
		}
		if p < 0 {
			return -1
		}
		return 1 + p
	}
	for i := range v.Rest {
		if v.Rest[i].Thread == t {
			return 1 + i
		}
	}
	return -1
}

// Slot is the read in slot k.
func (v *Var) Slot(k int) *Src {
	if k == 0 {
		return &v.R0
	}
	return &v.Rest[k-1].Src
}

// Read makes here thread t's read since the last write. A garbage here
// (nil Txn) drops t's earlier read instead: that read precedes here in
// program order, so it is garbage too. It returns how many reads it looked
// at to find t's. ix, if not nil, indexes Rest and is kept in step.
func (v *Var) Read(t int32, here Src, ix ReadIndex) int {
	k := v.Find(t, ix)
	scans := len(v.Rest)
	switch {
	case ix != nil:
		scans = 1
	case k >= 0:
		scans = k
	}
	switch {
	case k < 0:
		if here.Txn != nil {
			v.Add(t, here, ix)
		}
	case here.Txn == nil:
		v.Remove(k, ix)
	default:
		// A transaction's first read of v stays its witness; a read by a
		// recycled node's earlier transaction is stale.
		if r := v.Slot(k); r.Txn != here.Txn || r.Line < here.Txn.Begin {
			*r = here
		}
	}
	return scans
}

// Write makes here, an event of thread t, the last Write; the reads since
// the last one go.
func (v *Var) Write(t int32, here Src) {
	v.W, v.WT, v.R0 = here, t, Src{}
	if len(v.Rest) > 0 {
		clear(v.Rest)
		v.Rest = v.Rest[:0]
	}
}

// Add records thread t's read here, t having none.
func (v *Var) Add(t int32, here Src, ix ReadIndex) {
	if v.R0.Txn == nil {
		v.R0, v.R0T = here, t
		return
	}
	if ix != nil {
		ix[t] = int32(len(v.Rest))
	}
	v.Rest = append(v.Rest, Read{here, t})
}

// Remove drops the read in slot k, moving the last read into its place.
func (v *Var) Remove(k int, ix ReadIndex) {
	n := len(v.Rest)
	if n == 0 {
		v.R0 = Src{}
		return
	}
	last := v.Rest[n-1]
	if ix != nil {
		delete(ix, last.Thread)
	}
	if k == 0 {
		v.R0, v.R0T = last.Src, last.Thread
	} else if k < n {
		if ix != nil {
			delete(ix, v.Rest[k-1].Thread)
			ix[last.Thread] = int32(k - 1)
		}
		v.Rest[k-1] = last
	}
	v.Rest[n-1] = Read{}
	v.Rest = v.Rest[:n-1]
}

// EachRead calls f on every read since the last write.
func (v *Var) EachRead(f func(Src)) {
	if v.R0.Txn == nil {
		return
	}
	f(v.R0)
	for _, r := range v.Rest {
		f(r.Src)
	}
}

// Roomy grows rest, if more than half full, to twice its capacity.
func (v *Var) Roomy() {
	if c := cap(v.Rest); c > 0 && 2*len(v.Rest) > c {
		v.Rest = slices.Grow(v.Rest, c)
	}
}

// ReadByOthers tells whether v has reads since its last write that are
// not all cur's first one (small, so that access keeps it inline).
func (v *Var) ReadByOthers(cur *Txn) bool {
	return v.R0.Txn != nil && v.R0.Txn != cur || len(v.Rest) > 0
}

// Tokens is a token's gives not yet taken, oldest first: the k-th take
// follows the k-th give (a receive its send). A give whose transaction is
// garbage keeps its place, as a nil source.
type Tokens struct {
	gives []Src
	head  int
}

// Give queues a give.
func (q *Tokens) Give(s Src) { q.gives = append(q.gives, s) }

// Take dequeues the oldest give; ok is false when there is none (a
// reader refuses such a take).
func (q *Tokens) Take() (s Src, ok bool) {
	if q.head == len(q.gives) {
		return Src{}, false
	}
	s, q.gives[q.head] = q.gives[q.head], Src{}
	if q.head++; q.head == len(q.gives) || q.head > 64 && 2*q.head > len(q.gives) {
		q.gives, q.head = append(q.gives[:0], q.gives[q.head:]...), 0
	}
	return s, true
}

// Each calls f on every give not yet taken.
func (q *Tokens) Each(f func(*Src)) {
	for j := q.head; j < len(q.gives); j++ {
		f(&q.gives[j])
	}
}
