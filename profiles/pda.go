package profiles

import (
	"container/heap"
	"context"
	"fmt"

	"github.com/conc-dev/conc/model"
)

// ExtractPushdown computes the profiles of a pushdown thread (Lemma 4): the
// saturation below summarises every procedure by the summaries of its
// same-level paths, and the profiles are read off the runs from Init, which
// are finite paths once calls are summarised. docs/pda.md has the argument.
//
// A run from Init with the empty stack is a sequence of top-level steps:
// plain edges, matched calls (a push, a same-level path, the pop of the
// same symbol) and pushes that are never popped. Cut a run right after the
// second event of a profile: what remains is a run (runs are prefix
// closed) whose last step carries that event, so it is a top-level edge or
// the pop that closes a matched call; the first event may lie anywhere
// before. The saturation therefore records profiles only at the root (the
// top level), where the summary from Init to a state gives exactly the
// extraction's cur and bef (extract.go): cur = flat ∪ last, bef = pre.
//
// Time O(|P|³·v·Words(v)), which is Lemma 4's O(|P|³·v²); the bound is
// reached only by systems whose procedures all call each other everywhere.
func ExtractPushdown(a *model.Automaton, nvars int) (*Profiles, error) {
	return extractPushdown(context.Background(), a, nvars)
}

// extractPushdown is ExtractPushdown watching ctx: it ends with the
// context's cause.
func extractPushdown(ctx context.Context, a *model.Automaton, nvars int) (*Profiles, error) {
	if a.Init < 0 || int(a.Init) >= a.NumStates() {
		return nil, fmt.Errorf("profiles: initial state %d out of range", a.Init)
	}
	if err := checkTargets(a, nvars); err != nil {
		return nil, err
	}
	s := newSaturation(a, nvars)
	s.c.within(ctx)
	if err := s.saturate(); err != nil {
		return nil, err
	}
	c := s.c
	for _, q := range s.entries[0].reached {
		c.edges += len(a.Out[q])
	}
	return c.profiles(), nil
}

// saturation is Lemma 4's saturation for one automaton. Its facts are pairs
// (entry, state) with the summary of the same-level paths from the entry's
// state to the state: paths that end with the stack they started with and
// never pop below it. Entries are the targets of push edges (procedure
// entries), created on first use, and the root, entry 0: the top level,
// where runs start at Init with the empty stack, a push may also stay
// unmatched (so it is a plain edge too), and profiles are recorded.
type saturation struct {
	a       *model.Automaton
	c       *collector
	w       int
	entries []*satEntry
	byState map[int32]int32 // push target -> entry
	pops    *popIndex       // pop edges by state and symbol (pda_index.go)
	sums    []*summary      // by slot
	queued  []bool          // by slot
	work    satQueue
	t1, t2  *summary // scratch for the call rule
	cur     []uint64 // scratch for recording
	scans   int      // edges, exits and callers looked at: the work, counted (pda_index_test.go)
}

// satEntry is one entry's facts: the slot of each reached state, the states
// in order of discovery, those with a pop edge (exits), and the call sites
// that push into the entry (callers), by the symbol they push.
type satEntry struct {
	state   int32
	index   slotIndex
	reached []int32
	exits   []satFact
	callers map[int32][]satCaller
	seen    map[satCaller]bool
}

// satCaller is a call site: fact (entry, state), in slot, takes push edge
// edge.
type satCaller struct{ entry, state, edge, slot int32 }

type satFact struct{ entry, slot, state int32 }

func newSaturation(a *model.Automaton, nvars int) *saturation {
	c := newCollector(a, nvars) // summaries range over a's letters (alphabet.go)
	w := c.w
	s := &saturation{a: a, c: c, w: w, byState: map[int32]int32{}, pops: newPopIndex(a),
		t1: newSummary(w), t2: newSummary(w), cur: make([]uint64, w)}
	s.work.rank = make([]int32, a.NumStates())
	for i := range s.work.rank {
		s.work.rank[i] = int32(len(s.work.rank))
	}
	for i, q := range reversePostorder(a) {
		s.work.rank[q] = int32(i)
	}
	s.newEntry(a.Init) // the root
	return s
}

// newEntry adds an entry at state q, seeded with the empty path.
func (s *saturation) newEntry(q int32) int32 {
	e := int32(len(s.entries))
	s.entries = append(s.entries, &satEntry{state: q, index: newSlotIndex(len(s.entries), s.a.NumStates()),
		callers: map[int32][]satCaller{}, seen: map[satCaller]bool{}})
	slot := s.fact(e, q)
	s.sums[slot].epsilon()
	s.enqueue(e, slot, q)
	return e
}

// entryAt is the entry for push target q, created on first use.
func (s *saturation) entryAt(q int32) int32 {
	if e, ok := s.byState[q]; ok {
		return e
	}
	e := s.newEntry(q)
	s.byState[q] = e
	return e
}

// fact returns the slot of (e, q), creating an empty one.
func (s *saturation) fact(e, q int32) int32 {
	en := s.entries[e]
	if slot, ok := en.index.get(q); ok {
		return slot
	}
	slot := int32(len(s.sums))
	s.sums = append(s.sums, newSummary(s.w))
	s.queued = append(s.queued, false)
	en.index.set(q, slot)
	en.reached = append(en.reached, q)
	if e != 0 && hasPop(s.a, q) {
		en.exits = append(en.exits, satFact{e, slot, q})
	}
	return slot
}

func hasPop(a *model.Automaton, q int32) bool {
	for _, e := range a.Out[q] {
		if e.Stack == model.StackPop {
			return true
		}
	}
	return false
}

func (s *saturation) enqueue(e, slot, q int32) {
	if !s.queued[slot] {
		s.queued[slot] = true
		heap.Push(&s.work, satFact{e, slot, q})
	}
}

// saturate runs the worklist to the fixpoint. Invariant: every fact not in
// the worklist has had every rule applied to its current summary (with the
// current summaries of the facts the rule combines it with), so at the
// fixpoint the summaries are closed under the rules:
//
//	(e, e.state) ∋ ε
//	(e, q) ∋ π, q --ev--> r plain                   ⇒ (e, r) ∋ π·ev
//	(e, q) ∋ π, q --ev1/push d--> t, (t, x) ∋ ρ,
//	    x --ev2/pop d--> r                          ⇒ (e, r) ∋ π·ev1·ρ·ev2
//	(root, q) ∋ π, q --ev/push d--> t               ⇒ (root, t) ∋ π·ev
//
// whose least solution is the set of same-level paths (runs, at the root).
// The worklist takes facts in reverse postorder of their states (push and
// pop edges read as plain ones), so on acyclic parts a fact's inputs are
// final before it is taken, and it is processed once instead of once per
// letter its summary gains.
//
// It ends with the context's cause when the collector's context ends.
func (s *saturation) saturate() error {
	for taken := 1; s.work.Len() > 0; taken++ {
		if taken&tickMask == 0 {
			if err := s.c.ended(); err != nil {
				return err
			}
		}
		f := heap.Pop(&s.work).(satFact)
		s.queued[f.slot] = false
		for i, ed := range s.a.Out[f.state] {
			s.scans++
			switch ed.Stack {
			case model.StackNone:
				s.step(f.entry, f.slot, ed)
			case model.StackPush:
				if f.entry == 0 {
					s.step(0, f.slot, ed) // a call that never returns
				}
				s.call(satCaller{f.entry, f.state, int32(i), f.slot})
			case model.StackPop:
				s.ret(f.entry, f.slot, ed)
			}
		}
	}
	return nil
}

// step applies a plain edge (or an unmatched push) to fact slot of entry e.
func (s *saturation) step(e, slot int32, ed model.Edge) {
	src := s.sums[slot]
	if e == 0 {
		s.record(src, ed.Ev)
	}
	to := s.fact(e, ed.To)
	if s.orStep(s.sums[to], s.sums[slot], ed.Ev) {
		s.enqueue(e, to, ed.To)
	}
}

// call registers a call site with its callee and returns through every exit
// the callee has reached so far, by the pops of the symbol it pushes (only
// those: pda_index.go).
func (s *saturation) call(c satCaller) {
	push := s.a.Out[c.state][c.edge]
	callee := s.entryAt(push.To)
	ce := s.entries[callee]
	if !ce.seen[c] {
		ce.seen[c] = true
		ce.callers[push.Sym] = append(ce.callers[push.Sym], c)
	}
	s.t1.clear()
	s.orStep(s.t1, s.sums[c.slot], push.Ev)
	for _, x := range ce.exits {
		s.scans++
		for _, j := range s.pops.of(x.state, push.Sym) {
			s.scans++
			s.complete(c.entry, s.t1, x.slot, s.a.Out[x.state][j])
		}
	}
}

// ret returns from fact (e, x), in slot exit, by pop edge pop to every
// caller of e that pushed pop's symbol (only those).
func (s *saturation) ret(e, exit int32, pop model.Edge) {
	if e == 0 {
		return // the top level has nothing to pop
	}
	for _, c := range s.entries[e].callers[pop.Sym] {
		s.scans++
		push := s.a.Out[c.state][c.edge]
		s.t1.clear()
		s.orStep(s.t1, s.sums[c.slot], push.Ev)
		s.complete(c.entry, s.t1, exit, pop)
	}
}

// complete is the call rule for a caller in entry e: called, the caller's
// summary extended by its push event, then the callee's summary at the exit
// (slot exit), and the pop event.
func (s *saturation) complete(e int32, called *summary, exit int32, pop model.Edge) {
	s.t2.clear()
	orConcat(s.t2, called, s.sums[exit])
	if e == 0 {
		s.record(s.t2, pop.Ev)
	}
	to := s.fact(e, pop.To)
	if s.orStep(s.sums[to], s.t2, pop.Ev) {
		s.enqueue(e, to, pop.To)
	}
}

// record notes the profiles of a top-level event ev made after the runs
// summarised by src (Definition 4, as in extract.go's access).
func (s *saturation) record(src *summary, ev model.Event) {
	if !ev.Op.IsAccess() {
		s.c.sync = s.c.sync || ev.Op.IsSync()
		return
	}
	for i := range s.cur {
		s.cur[i] = src.flat[i] | src.last[i]
	}
	s.c.access(s.c.al.letterOf(ev), s.cur, src.pre)
}

// orStep is orStep over the automaton's local letters.
func (s *saturation) orStep(dst, src *summary, ev model.Event) bool {
	return orStep(dst, src, ev, s.c.al.letterOf(ev))
}

// slotIndex maps the states an entry has reached to their slots: a dense
// array while entries·states stays under denseBudget, a map beyond (an
// entry of a large system typically reaches few states: one procedure's).
type slotIndex struct {
	dense  []int32 // slot+1; 0 for unreached
	sparse map[int32]int32
}

const denseBudget = 1 << 22

func newSlotIndex(entries, states int) slotIndex {
	if (entries+1)*states <= denseBudget {
		return slotIndex{dense: make([]int32, states)}
	}
	return slotIndex{sparse: map[int32]int32{}}
}

func (x *slotIndex) get(q int32) (int32, bool) {
	if x.dense != nil {
		return x.dense[q] - 1, x.dense[q] != 0
	}
	slot, ok := x.sparse[q]
	return slot, ok
}

func (x *slotIndex) set(q, slot int32) {
	if x.dense != nil {
		x.dense[q] = slot + 1
		return
	}
	x.sparse[q] = slot
}

// satQueue is the worklist: a heap of facts by the rank of their state.
type satQueue struct {
	facts []satFact
	rank  []int32 // state -> position in reverse postorder
}

func (h *satQueue) Len() int { return len(h.facts) }
func (h *satQueue) Less(i, j int) bool {
	ri, rj := h.rank[h.facts[i].state], h.rank[h.facts[j].state]
	return ri < rj || ri == rj && h.facts[i].slot < h.facts[j].slot
}
func (h *satQueue) Swap(i, j int) { h.facts[i], h.facts[j] = h.facts[j], h.facts[i] }
func (h *satQueue) Push(x any)    { h.facts = append(h.facts, x.(satFact)) }
func (h *satQueue) Pop() any {
	f := h.facts[len(h.facts)-1]
	h.facts = h.facts[:len(h.facts)-1]
	return f
}
