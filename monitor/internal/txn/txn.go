package txn

import "math"

// Txn is a transaction (a node of the conflict graph). The fields
// every new edge and every record check reads come first, within one
// cache line: the arena's chunks are line-aligned and a node is exactly
// three lines long, so they cost one cache miss, not two.
type Txn struct {
	Out     []Edge
	Mask    uint64 // slots of the open transactions that reach it
	LastOut *Txn   // target of Out's last edge, to skip repeats cheaply
	Begin   int64  // line of its first event; NeverBegun while free
	Slot    int8   // its reachability bit while open, or -1
	Open    bool
	Cyclic  bool
	Dead    bool // collected: can lie on no future cycle, takes no new edge
	Merged  bool // dead, contracted into SCC (the monitor's contraction)
	Unary   bool // a unary transaction, or a run of them (absorbed)
	Thread  int32
	// Weight: the transactions merged into it (with the monitor's
	// CountBlocks, the atomic blocks among them), on a cycle exactly when
	// it is
	Weight int32
	In     []Edge    // the same edges seen from their target: To is the source
	SBits  uint64    // representative: slots of its component's open transactions
	SCC    *Txn      // union-find parent; nil for a representative
	Viol   ViolState // its cycle, once found, until it is reported
	End    int64     // -1 while open
	Size   int32     // representative: members besides itself
	Stamp  uint32    // search epoch that last visited it
	Idx    int32     // its index in the current search or collection
	PStamp uint32    // pathFrom's or jumpFrom's epoch and index
	PIdx   int32
	Pos    int32 // its index in nodes
	// The first edge each way lives in the node: with garbage's edges gone,
	// most transactions have at most one, and a slice of its own would cost
	// an allocation per transaction (recycled nodes keep their slices).
	// Buf[0] is Out's, Buf[1] In's, but for SpreadIn.
	Buf [2]Edge
}

// ViolState says whether a transaction found on a cycle still has its
// violation to hand over, and whether its cycle was spelled out.
type ViolState uint8

const (
	NoViolation ViolState = iota // none, or handed over
	Counted                      // to be counted only: nobody will see its cycle
	Described                    // its cycle is kept by the monitor until handed over
)

// Edge is an edge to To, witnessed by the event at line From (of the
// source transaction) and the conflicting later event at line At (of To).
type Edge struct {
	To   *Txn
	From int64
	At   int64
}

// Src is an earlier event that later events may conflict with.
type Src struct {
	Txn  *Txn
	Line int64
}

// Stale tells whether s names a transaction whose node was recycled.
func (s Src) Stale() bool { return s.Line < s.Txn.Begin }

// NeverBegun is the begin of a node in the free list: every record that
// names it is stale.
const NeverBegun = math.MaxInt64

// SpreadIn gives x's in-list, about to outgrow its inline edge, both
// inline edges while the out-list is empty: on jgf-sor and jgf-crypt a
// million violating transactions stay in the graph with two in-edges (one
// from the main thread's transaction, one by program order) and one
// out-edge, which then costs a 24-byte slice instead of a 48-byte one.
func (x *Txn) SpreadIn() {
	if &x.In[0] != &x.Buf[1] {
		return // a slice of its own
	}
	x.Buf[0] = x.Buf[1]
	x.In = x.Buf[:1:2]
	if x.Owns(x.Out) {
		x.Out = nil
	}
}

// Owns tells whether edges lie in x's inline buffer.
func (x *Txn) Owns(edges []Edge) bool {
	if cap(edges) == 0 || cap(edges) > len(x.Buf) {
		return false
	}
	p := &edges[:1][0]
	return p == &x.Buf[0] || p == &x.Buf[1]
}

// Find is the representative of n's strongly connected component among the
// transactions found on cycles so far (union-find with path halving).
func Find(n *Txn) *Txn {
	for n.SCC != nil {
		if n.SCC.SCC != nil {
			n.SCC = n.SCC.SCC
		}
		n = n.SCC
	}
	return n
}

// Union merges the components of a and b: a cycle passes through both.
func Union(a, b *Txn) {
	ra, rb := Find(a), Find(b)
	if ra == rb {
		return
	}
	if ra.Size < rb.Size {
		ra, rb = rb, ra
	}
	rb.SCC = ra
	ra.Size += rb.Size + 1
	ra.SBits |= rb.SBits
}
