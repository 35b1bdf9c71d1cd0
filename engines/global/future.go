package global

import (
	"sort"

	"github.com/bits-and-blooms/bitset"

	"github.com/conc-dev/conc/model"
)

// Futures: what a thread may still do. Partial-order reduction needs to know
// whether another thread can ever make a move that interferes with a given
// one; the answer is read off per-state tables of "future letters":
//
//   - r(x), w(x) for every variable two threads touch;
//   - lk(l) for every lock two threads use (acquire or release);
//   - fj(U) for every thread U that some thread forks or joins;
//   - with docs/spec.md §3's orderings, rd(l) for the read acquires and
//     releases of such a lock, and post(m), wait(m), give(s), take(s)
//     for every message or token two threads use (none in a program
//     without orderings).
//
// base(q) holds the letters of every edge reachable from q (for a pushdown
// automaton the edges reachable in its graph, pops going to every return
// site: an over-approximation, which is what soundness needs). before(l, q)
// holds those reachable without taking an acquire of l, that acquire left
// out: while a thread that cannot move holds l, nothing past that acquire
// can happen (nor past a read acquire of l: only a write hold is cut at).

// maxRefinedLocks bounds the locks that get a before-table.
const maxRefinedLocks = 16

// alphabet numbers the future letters of a program.
type alphabet struct {
	words int
	read  []int32 // per variable, or -1 when private
	write []int32
	lock  []int32 // per lock, or -1 when one thread uses it
	fj    []int32 // per thread, or -1 when nobody forks or joins it
	// docs/spec.md §3's orderings: per lock its read acquires and
	// releases, per message its posts and waits, per token its gives and
	// takes; -1 when one thread uses it, or no event has it.
	rd                     []int32
	post, wait, give, take []int32
	ordered                bool    // the program has ordering events
	refined                []int32 // the locks with before-tables
	refinedOf              []int32 // per lock: index into refined, or -1
}

// futureTable answers, for one automaton: may a thread in state q still make
// a move with future letter x, without acquiring a lock marked in held (nil:
// no lock held)? Answers may err only towards yes.
type futureTable interface {
	has(q, x int32, held []bool) bool
}

// denseFut keeps a letter set per state: base, and per refined lock the
// before-table (for regular and pushdown automata).
type denseFut struct {
	fa     *alphabet
	base   futureRows
	before []futureRows // per refined lock
}

// futureRows is a letter set per state. The rows share one allocation of
// words (futureFixpoint), each wrapped once, where it is built.
type futureRows []bitset.BitSet

func (d *denseFut) has(q, x int32, held []bool) bool {
	if !d.base[q].Test(uint(x)) {
		return false
	}
	if held != nil {
		for r, l := range d.fa.refined {
			if held[l] && !d.before[r][q].Test(uint(x)) {
				return false
			}
		}
	}
	return true
}

// newAlphabet numbers the letters that can make two threads interfere.
func newAlphabet(p *model.Program, sharedVars, sharedLocks []bool) *alphabet {
	fa := &alphabet{}
	n := int32(0)
	next := func(on bool) int32 {
		if !on {
			return -1
		}
		n++
		return n - 1
	}
	for x := range p.Vars {
		fa.read = append(fa.read, next(sharedVars[x]))
		fa.write = append(fa.write, next(sharedVars[x]))
	}
	for l := range p.Locks {
		fa.lock = append(fa.lock, next(sharedLocks[l]))
		fa.refinedOf = append(fa.refinedOf, -1)
		if sharedLocks[l] && len(fa.refined) < maxRefinedLocks {
			fa.refinedOf[l] = int32(len(fa.refined))
			fa.refined = append(fa.refined, int32(l))
		}
	}
	targets := make([]bool, len(p.Threads))
	for _, th := range p.Threads {
		for _, es := range th.Auto.Out {
			for _, e := range es {
				if e.Ev.Op == model.OpFork || e.Ev.Op == model.OpJoin {
					targets[e.Ev.Target] = true
				}
			}
		}
	}
	for u := range p.Threads {
		fa.fj = append(fa.fj, next(targets[u]))
	}
	fa.orderingLetters(p, sharedLocks, next)
	fa.words = max(1, int(n+63)/64)
	return fa
}

// orderingLetters numbers the letters of docs/spec.md §3's orderings (after
// every other letter, whose numbers do not depend on them): rd(l) for a
// shared lock that some thread read-acquires or
// read-releases; the four letters of a message or token that two
// threads use and some event has.
func (fa *alphabet) orderingLetters(p *model.Program, sharedLocks []bool, next func(bool) int32) {
	read := make([]bool, len(p.Locks))
	used := make([][model.OpTake + 1]bool, len(p.Msgs))
	user := make([]int, len(p.Msgs))
	shared := make([]bool, len(p.Msgs))
	for m := range user {
		user[m] = -1
	}
	for t, th := range p.Threads {
		for _, es := range th.Auto.Out {
			for _, e := range es {
				switch op, x := e.Ev.Op, e.Ev.Target; op {
				case model.OpReadAcquire, model.OpReadRelease:
					read[x] = true
				case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
					used[x][op] = true
					shared[x] = shared[x] || user[x] >= 0 && user[x] != t
					user[x] = t
				}
			}
		}
	}
	fa.ordered = p.HasOrderings()
	for l := range p.Locks {
		fa.rd = append(fa.rd, next(sharedLocks[l] && read[l]))
	}
	for m := range p.Msgs {
		fa.post = append(fa.post, next(shared[m] && used[m][model.OpPost]))
		fa.wait = append(fa.wait, next(shared[m] && used[m][model.OpWait]))
		fa.give = append(fa.give, next(shared[m] && used[m][model.OpGive]))
		fa.take = append(fa.take, next(shared[m] && used[m][model.OpTake]))
	}
}

// own is the future letter of one event, or -1.
func (fa *alphabet) own(ev model.Event) int32 {
	switch ev.Op {
	case model.OpRead:
		return fa.read[ev.Target]
	case model.OpWrite:
		return fa.write[ev.Target]
	case model.OpAcquire, model.OpRelease:
		return fa.lock[ev.Target]
	case model.OpFork, model.OpJoin:
		return fa.fj[ev.Target]
	case model.OpReadAcquire, model.OpReadRelease:
		return fa.rd[ev.Target]
	case model.OpPost:
		return fa.post[ev.Target]
	case model.OpWait:
		return fa.wait[ev.Target]
	case model.OpGive:
		return fa.give[ev.Target]
	case model.OpTake:
		return fa.take[ev.Target]
	}
	return -1
}

// deps appends the future letters that interfere with event ev made by
// another thread: a write for a read, any access for a write, any use of the
// same lock for a lock event. Fork and join interfere with the forked or
// joined thread itself, which the caller checks by thread.
//
// With docs/spec.md §3's orderings, an event of the set interferes with
// another thread's event that may disable it or that it may disable (or
// that does not commute with it), in the states where both may happen: a
// write acquire with the lock's read acquires (each blocks the other), a
// read acquire or release with the lock's write acquires and releases,
// and a take with the token's other takes (two may want one token).
// Gives, posts and waits interfere with nothing: a give or a post only
// adds (nothing waits less for it, and a wait is not enabled while a post
// of its message is still to come), and an enabled wait stays enabled (no
// post is left). What they enable is the persistent set's enablers'
// business (addEnablers: a disabled wait or take adds the threads that
// may post or give), not interference.
func (fa *alphabet) deps(ev model.Event, out []int32) []int32 {
	switch x := ev.Target; ev.Op {
	case model.OpRead:
		out = append(out, fa.write[x])
	case model.OpWrite:
		out = append(out, fa.read[x], fa.write[x])
	case model.OpAcquire:
		out = append(out, fa.lock[x], fa.rd[x])
	case model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		out = append(out, fa.lock[x])
	case model.OpTake:
		out = append(out, fa.take[x])
	}
	return out
}

// newFutureTable computes a's tables: occurrence lists for a straight-line
// automaton (memory linear in its length, whatever the alphabet: traces
// can be long), per-state letter sets by a fixpoint otherwise.
func newFutureTable(fa *alphabet, a *model.Automaton) futureTable {
	if model.ClassOf(a) == model.StraightLine {
		return newLineFut(fa, a)
	}
	order := a.PostOrder(true)
	d := &denseFut{fa: fa, base: futureFixpoint(fa, a, order, -1)}
	for _, l := range fa.refined {
		d.before = append(d.before, futureFixpoint(fa, a, order, l))
	}
	return d
}

// isAcquire reports a write or read acquire: either waits while another
// thread write-holds the lock, so a future is cut at both.
func isAcquire(op model.Op) bool { return op == model.OpAcquire || op == model.OpReadAcquire }

// futureFixpoint computes fut[q] = ⋃ over edges e of q (except acquires,
// write or read, of cut, when cut >= 0) of own(e) ∪ fut[e.To], the least solution.
func futureFixpoint(fa *alphabet, a *model.Automaton, order []int32, cut int32) futureRows {
	w := fa.words
	words := make([]uint64, a.NumStates()*w)
	fut := make(futureRows, a.NumStates())
	for q := range fut {
		fut[q] = *bitset.From(words[q*w : q*w+w : q*w+w])
	}
	for changed := true; changed; {
		changed = false
		for _, q := range order {
			row := &fut[q]
			for _, e := range a.Out[q] {
				if cut >= 0 && isAcquire(e.Ev.Op) && e.Ev.Target == cut {
					continue
				}
				if x := fa.own(e.Ev); x >= 0 && !row.Test(uint(x)) {
					row.Set(uint(x))
					changed = true
				}
				if to := &fut[e.To]; !row.IsSuperSet(to) {
					row.InPlaceUnion(to)
					changed = true
				}
			}
		}
	}
	return fut
}

// lineFut is the future of a straight-line automaton: its states lie on one
// path, so the future from the state at position p is the edges at p, p+1,
// ...; a letter is in it iff it occurs at some position >= p (before an
// acquire of l: before l's next acquire at or after p).
type lineFut struct {
	fa  *alphabet
	pos []int32        // per state: its position on the path, or -1 off it
	occ [][]int32      // per future letter: the positions of its edges, ascending
	acq [][]int32      // per lock: the positions of its acquires (write or read), ascending
	ord *lineOrderings // docs/spec.md §3's events' positions (cuts.go); nil without them
}

func newLineFut(fa *alphabet, a *model.Automaton) *lineFut {
	n := fa.words * 64
	lf := &lineFut{fa: fa, pos: make([]int32, a.NumStates()), occ: make([][]int32, n), acq: make([][]int32, len(fa.lock))}
	if fa.ordered {
		lf.ord = newLineOrderings(fa)
	}
	for q := range lf.pos {
		lf.pos[q] = -1
	}
	q := a.Init
	for i := int32(0); lf.pos[q] < 0; i++ {
		lf.pos[q] = i
		if len(a.Out[q]) == 0 {
			break
		}
		e := a.Out[q][0]
		if x := fa.own(e.Ev); x >= 0 {
			lf.occ[x] = append(lf.occ[x], i)
		}
		if isAcquire(e.Ev.Op) {
			lf.acq[e.Ev.Target] = append(lf.acq[e.Ev.Target], i)
		}
		if lf.ord != nil {
			lf.ord.note(e.Ev, i)
		}
		q = e.To
	}
	return lf
}

func (lf *lineFut) has(q, x int32, held []bool) bool {
	p := lf.pos[q]
	if p < 0 {
		return true // off the path (unreachable): no claim
	}
	i, ok := firstAtLeast(lf.occ[x], p)
	if !ok {
		return false
	}
	for l, h := range held {
		if a, ok := firstAtLeast(lf.acq[l], p); h && ok && a <= i {
			return false
		}
	}
	return true
}

// firstAtLeast is the first element of ascending xs that is >= p.
func firstAtLeast(xs []int32, p int32) (int32, bool) {
	i := sort.Search(len(xs), func(i int) bool { return xs[i] >= p })
	if i == len(xs) {
		return 0, false
	}
	return xs[i], true
}
