package predict

import (
	"encoding/binary"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// This file is the brute-force reference ("oracle") for the two-thread
// question (docs/predict.md): is there a run of the projection program
// (docs/spec.md §3) whose conflict graph (§1) has a cycle all of whose
// transactions belong to the same two threads? It shares nothing with the
// package's code but the trace reader (parsing and §3's normalisation):
// it builds the projections, enumerates the runs and builds the conflict
// graph itself.

// pairOracleMaxNodes bounds the transactions: a graph row is one uint64.
const pairOracleMaxNodes = 64

// oracleEvent is one event of a thread's projection and the conflict-graph
// node (transaction) it belongs to, -1 for a lock, fork or join event
// outside a transaction without lock edges (§1: it belongs to none).
type oracleEvent struct {
	op     model.Op
	target int32
	node   int
}

// oracleGive is a give of a token in the run: its thread and node.
type oracleGive struct{ thread, node int }

// pairOracle is the exhaustive search over the runs of one projection
// program. Nodes are numbered thread by thread in program order, so that
// nodes i < j of one thread have the program-order edge i → j.
type pairOracle struct {
	names     []string
	evs       [][]oracleEvent
	nodeOf    []int           // node → its thread
	forked    []bool          // some thread's projection forks this one
	lockEdges bool            // §1's --lock-edges conflicts
	memo      bool            // skip states seen before (see visit)
	pos       []int           // events of each thread in the run so far
	owner     []int           // lock → holding thread, -1 when free
	readers   []int           // lock → how many threads read-hold it (docs/spec.md §3)
	postsLeft []int           // message → its posts not yet in the run
	given     [][]oracleGive  // token → its gives in the run, in run order
	taken     []int           // token → its takes in the run
	started   []bool          // the thread may move (§1: unforked, or forked)
	cross     []uint64        // cross-thread conflict edges: node → its successors
	seen      map[string]bool // visit's states (memo)
	key       []byte          // visit's buffer
	undo      [][]uint64      // step's saved rows, one slice per run length
	states    int             // search nodes visited, for the size reports
	found     map[[2]string]bool
}

// twoThreadCycles returns the unordered pairs of threads (names sorted)
// that have a two-thread cycle in some run of src's projection program,
// under §1's conflicts (with --lock-edges' when lockEdges is set).
func twoThreadCycles(t testing.TB, src string, lockEdges bool) map[[2]string]bool {
	o := newPairOracle(t, src, lockEdges, true)
	o.search()
	return o.found
}

// newPairOracle reads src and builds each thread's projection with its
// transactions: a begin opens one, its end closes it (the reader already
// flattened nesting and dropped re-entrant acquires); an access outside
// one is a unary transaction, and so, under lock edges, is a lock, fork or
// join event.
func newPairOracle(t testing.TB, src string, lockEdges, memo bool) *pairOracle {
	r, err := trace.NewReader(strings.NewReader(src), "t.std", trace.Options{Orderings: true})
	require.NoError(t, err)
	var all []trace.Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		all = append(all, e)
	}
	names := r.Threads().Names()
	o := &pairOracle{names: names, evs: make([][]oracleEvent, len(names)), forked: make([]bool, len(names)),
		lockEdges: lockEdges, memo: memo, seen: map[string]bool{}, found: map[[2]string]bool{}}
	for th := range names {
		o.project(all, th)
		require.Less(t, len(o.evs[th]), 256, "too many events in thread %s for the oracle", names[th])
	}
	require.LessOrEqual(t, len(o.nodeOf), pairOracleMaxNodes, "too many transactions for the oracle")
	o.pos = make([]int, len(names))
	o.started = make([]bool, len(names))
	for th := range names {
		o.started[th] = !o.forked[th]
	}
	o.owner, o.readers = make([]int, r.Locks().Len()), make([]int, r.Locks().Len())
	for l := range o.owner {
		o.owner[l] = -1
	}
	o.postsLeft = make([]int, r.Msgs().Len())
	o.given, o.taken = make([][]oracleGive, r.Msgs().Len()), make([]int, r.Msgs().Len())
	for _, e := range all {
		if e.Op == model.OpPost {
			o.postsLeft[e.Target]++
		}
	}
	o.cross = make([]uint64, len(o.nodeOf))
	for range len(all) {
		o.undo = append(o.undo, make([]uint64, len(o.nodeOf)))
	}
	return o
}

// project appends thread th's projection, numbering its transactions.
func (o *pairOracle) project(all []trace.Event, th int) {
	open := -1 // the node of the open transaction
	for _, e := range all {
		if int(e.Thread) != th {
			continue
		}
		if e.Op == model.OpFork {
			o.forked[e.Target] = true
		}
		node := open
		switch {
		case e.Op == model.OpBegin:
			node = o.newNode(th)
			open = node
		case e.Op == model.OpEnd:
			open = -1
		case open >= 0:
		case e.Op.IsAccess() || o.lockEdges:
			node = o.newNode(th) // a unary transaction
		}
		o.evs[th] = append(o.evs[th], oracleEvent{op: e.Op, target: e.Target, node: node})
	}
}

func (o *pairOracle) newNode(th int) int {
	o.nodeOf = append(o.nodeOf, th)
	return len(o.nodeOf) - 1
}

// search explores every run from the current state by depth-first search
// with backtracking, and checks each maximal run (one no thread can
// extend) for two-thread cycles. That suffices: extending a run only adds
// nodes and edges to its conflict graph, so a cycle of any run is a cycle
// of every maximal run extending it, and every run extends to a maximal
// one (the projections are finite).
func (o *pairOracle) search() {
	o.states++
	if !o.visit() {
		return
	}
	moved := false
	for th := range o.evs {
		if !o.enabled(th) {
			continue
		}
		moved = true
		undo := o.step(th)
		o.search()
		o.unstep(th, undo)
	}
	if !moved {
		o.checkPairs()
	}
}

// visit reports whether the state is new. With memo off every state is
// new. With memo on, a state is the positions (a byte each) and the cross
// edges (len(nodeOf) bits a row, packed), and skipping a state seen
// before loses no maximal run's graph: which moves are enabled depends
// only on the positions (a lock's holder, whether a thread has been forked
// and whether it has finished are all read off them), and so does which
// edges a move adds (an event conflicts with the executed events, which
// are the positions' prefixes; the order among them is already summed up
// in the edges). So two runs reaching one state have the same
// continuations, and their maximal runs have the same graphs.
func (o *pairOracle) visit() bool {
	if !o.memo {
		return true
	}
	k := o.key[:0]
	for _, p := range o.pos {
		k = append(k, byte(p))
	}
	var acc uint64 // the rows' first len(nodeOf) bits, packed
	used := 0
	for _, row := range o.cross {
		acc |= row << used
		used += len(o.nodeOf)
		for used >= 64 {
			k = binary.LittleEndian.AppendUint64(k, acc)
			used -= 64
			acc = row >> (len(o.nodeOf) - used)
		}
	}
	k = binary.LittleEndian.AppendUint64(k, acc)
	// Which give a take takes depends on the gives' order: the nodes of
	// those not yet taken, in order, are part of the state.
	for s, g := range o.given {
		for _, x := range g[o.taken[s]:] {
			k = append(k, byte(x.node+1)) // -1 (no node) is 0
		}
		k = append(k, 0xff)
	}
	o.key = k
	if o.seen[string(k)] {
		return false
	}
	o.seen[string(k)] = true
	return true
}

// enabled says whether thread th's next event may happen now (§1): the
// thread has started; an acquire needs a free lock (re-entrant acquires
// were dropped by the reader, §3), free of readers too, a read acquire no
// writer, a wait every post of its message (§3's orderings); a fork needs its thread not started
// (the reader rejects a fork after the thread's first event); a join needs
// its thread started and finished.
func (o *pairOracle) enabled(th int) bool {
	if !o.started[th] || o.pos[th] == len(o.evs[th]) {
		return false
	}
	e := o.evs[th][o.pos[th]]
	switch e.op {
	case model.OpAcquire:
		return o.owner[e.target] < 0 && o.readers[e.target] == 0
	case model.OpReadAcquire:
		return o.owner[e.target] < 0
	case model.OpWait:
		return o.postsLeft[e.target] == 0
	case model.OpTake:
		return len(o.given[e.target]) > o.taken[e.target]
	case model.OpRelease:
		return o.owner[e.target] == th
	case model.OpFork:
		return !o.started[e.target]
	case model.OpJoin:
		u := e.target
		return int(u) != th && o.started[u] && o.pos[u] == len(o.evs[u])
	}
	return true
}

// step runs thread th's next event: it adds an edge from every node of
// another thread with an executed event that conflicts with it, and
// updates locks and forks. It returns the rows to restore.
func (o *pairOracle) step(th int) []uint64 {
	undo := o.undo[o.runLen()]
	copy(undo, o.cross)
	e := o.evs[th][o.pos[th]]
	if e.node >= 0 {
		for a := range o.evs {
			if a == th {
				continue
			}
			for _, f := range o.evs[a][:o.pos[a]] {
				if f.node >= 0 && o.conflict(a, f, th, e) {
					o.cross[f.node] |= 1 << e.node
				}
			}
		}
	}
	if e.op == model.OpTake && o.lockEdges && e.node >= 0 {
		// docs/spec.md §3: the take follows the oldest give not yet taken.
		if g := o.given[e.target][o.taken[e.target]]; g.thread != th && g.node >= 0 {
			o.cross[g.node] |= 1 << e.node
		}
	}
	o.move(th, e, 1)
	o.pos[th]++
	return undo
}

func (o *pairOracle) runLen() int {
	n := 0
	for _, p := range o.pos {
		n += p
	}
	return n
}

func (o *pairOracle) unstep(th int, undo []uint64) {
	o.pos[th]--
	o.move(th, o.evs[th][o.pos[th]], -1)
	copy(o.cross, undo)
}

// move updates the locks, forks and posts for thread th's event e, done
// (dir 1) or undone (dir -1).
func (o *pairOracle) move(th int, e oracleEvent, dir int) {
	switch e.op {
	case model.OpAcquire:
		o.owner[e.target] = map[int]int{1: th, -1: -1}[dir]
	case model.OpRelease:
		o.owner[e.target] = map[int]int{1: -1, -1: th}[dir]
	case model.OpFork:
		o.started[e.target] = dir == 1
	case model.OpReadAcquire:
		o.readers[e.target] += dir
	case model.OpReadRelease:
		o.readers[e.target] -= dir
	case model.OpPost:
		o.postsLeft[e.target] -= dir
	case model.OpGive:
		if g := o.given[e.target]; dir > 0 {
			o.given[e.target] = append(g, oracleGive{th, e.node})
		} else {
			o.given[e.target] = g[:len(g)-1]
		}
	case model.OpTake:
		o.taken[e.target] += dir
	}
}

// conflict says whether f of thread a, executed earlier, conflicts with e
// of thread b ≠ a (§1): accesses of one variable, one a write; and under
// lock edges a release before an acquire of its lock, a fork of b before
// b's events, a's events before a join of a.
func (o *pairOracle) conflict(a int, f oracleEvent, b int, e oracleEvent) bool {
	if f.op.IsAccess() && e.op.IsAccess() {
		return f.target == e.target && (f.op == model.OpWrite || e.op == model.OpWrite)
	}
	if !o.lockEdges {
		return false
	}
	switch {
	case f.target == e.target && (f.op == model.OpRelease && (e.op == model.OpAcquire || e.op == model.OpReadAcquire) ||
		f.op == model.OpReadRelease && e.op == model.OpAcquire || f.op == model.OpPost && e.op == model.OpWait):
		return true
	case f.op == model.OpFork && int(f.target) == b:
		return true
	case e.op == model.OpJoin && int(e.target) == a:
		return true
	}
	return false
}

// checkPairs records every pair of threads whose nodes carry a cycle in
// the current run's conflict graph, induced on the pair's nodes.
func (o *pairOracle) checkPairs() {
	for a := range o.names {
		for b := a + 1; b < len(o.names); b++ {
			if o.pairCycle(a, b) {
				p := [2]string{o.names[a], o.names[b]}
				if p[0] > p[1] {
					p[0], p[1] = p[1], p[0]
				}
				o.found[p] = true
			}
		}
	}
}

// pairCycle computes the transitive closure of the graph induced on the
// nodes of threads a and b (program order plus cross edges) and reports a
// node that reaches itself. Nodes not yet begun have no cross edges and
// program order is acyclic, so they lie on no cycle.
func (o *pairOracle) pairCycle(a, b int) bool {
	var mask uint64
	for n, th := range o.nodeOf {
		if th == a || th == b {
			mask |= 1 << n
		}
	}
	return o.cycleAmong(mask)
}

// cycleAmong reports a cycle of the graph induced on the nodes of mask.
func (o *pairOracle) cycleAmong(mask uint64) bool {
	reach := make([]uint64, len(o.nodeOf))
	for n, th := range o.nodeOf {
		if mask&(1<<n) == 0 {
			continue
		}
		reach[n] = o.cross[n] & mask
		for m := n + 1; m < len(o.nodeOf); m++ {
			if o.nodeOf[m] == th {
				reach[n] |= 1 << m // program order
			}
		}
	}
	for k := range reach {
		for n := range reach {
			if reach[n]&(1<<k) != 0 {
				reach[n] |= reach[k]
			}
		}
	}
	for n := range reach {
		if reach[n]&(1<<n) != 0 {
			return true
		}
	}
	return false
}
