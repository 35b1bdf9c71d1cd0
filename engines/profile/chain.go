package profile

import (
	"context"
	"encoding/binary"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/profiles"
)

// The fast combination. By Lemma 2 a program without locks that violates
// atomicity has a non-serializable normal run: one thread i runs into a
// transaction T, every other thread runs serially, then i finishes T. In
// such a run the cycle leaves T from an access a, visits distinct other
// threads j1..jm (m >= 1), each entered at an access e1 and left at an access
// e2, and returns to T at an access b after a. So (Lemma 3, spelled out):
//
//	the program violates atomicity  iff  some thread i has a profile ▷ a b ◁
//	and there are distinct threads j1..jm other than i and letters with
//	a D e1(j1),  e2(jt) D e1(jt+1),  e2(jm) D b,  and for each j:
//	e1 = e2 is one event (▷ e1 ◁), or ▷ e1 e2 ◁, ▷ e2 e1 ◁ or ▷ e1 ◁ ▷ e2 ◁.
//
// (e2 may come before e1 when both lie in one transaction: the edge into and
// the edge out of a transaction need not be ordered inside it.) For the "if"
// direction, the normal run "i up to a; j1 up to its later event; …; jm; i to
// b" has exactly that cycle. A shortest chain has distinct out-letters (a
// repeated one can be short-cut), so m <= 2v.
//
// Chains are searched over states (current letter, how many threads of each
// class are used): identical threads are interchangeable, so thread W[64]
// costs a counter, not 2^64 subsets. A state that failed once fails again, so
// states are visited at most once per (i's class, a). Theorem 2 makes the
// problem NP-complete, and the state count is exponential in the number of
// distinct threads only in the worst case.

// linkTable is, for one thread class, reach[e] (the letters a thread can be
// left by after being entered by e: e itself, ▷e y◁, ▷e◁▷y◁ and ▷y e◁) and
// next[l] (the union of reach[e] over the entries e that conflict with l).
// Only the letters the class uses, and those that conflict with them, get
// a set of their own; the others share one empty set, so a program with
// many variables and threads that touch few costs O(used · v) bits, not
// O(v²) (10,000 declared variables: 217 MB before).
func linkTable(pr *profiles.Profiles) (reach, next []profiles.Set) {
	L := pr.Letters()
	w := len(pr.Single)
	empty := profiles.NewSet(w)
	reach, next = make([]profiles.Set, L), make([]profiles.Set, L)
	for e := range reach {
		reach[e], next[e] = empty, empty
	}
	own := make([]bool, L)
	set := func(e profiles.Letter) profiles.Set {
		if !own[e] {
			own[e], reach[e] = true, profiles.NewSet(w)
		}
		return reach[e]
	}
	used := pr.Single.Letters()
	for _, e := range used { // entered by e
		r := set(e)
		r.Add(e)
		r.Or(pr.Same[e])
		r.Or(pr.Diff[e])
	}
	for _, x := range used { // ▷ x e ◁ lets e enter and x leave
		for _, e := range pr.Same[x].Letters() {
			set(e).Add(x)
		}
	}
	for _, l := range pr.Single.Conflicting().Letters() {
		next[l] = profiles.NewSet(w)
		ins, n := entries(l)
		for _, e := range ins[:n] {
			next[l].Or(reach[e])
		}
	}
	return reach, next
}

// entries lists the letters that conflict with l: write x for read x, both
// letters of x for write x (in a fixed array: it is on the search's hot path).
func entries(l profiles.Letter) ([2]profiles.Letter, int) {
	w := l | 1 // the write of l's variable
	if l.Write() {
		return [2]profiles.Letter{w - 1, w}, 2
	}
	return [2]profiles.Letter{w, w}, 1
}

// chainStep is one link of a chain found: a thread of class class, entered
// by letter in and left by letter out.
type chainStep struct {
	class   int
	in, out profiles.Letter
}

// chainSearch is the depth-first search for one (class of i, letter a).
type chainSearch struct {
	visitSet
	reach [][]profiles.Set // per class (linkTable)
	next  [][]profiles.Set // per class (linkTable)
	avail []int            // threads of each class usable in the chain
	used  []int
	tgt   profiles.Set // letters that conflict with some b of ▷ a b ◁
	rel   relevance
	key   []byte
	stack []profiles.Letter // scratch for feasible
	steps []chainStep
}

// Decide decides a program without synchronisation from its threads'
// profiles by the chain search above, and builds the witness normal run.
func Decide(ctx context.Context, p *model.Program, tps []ThreadProfiles, opts engines.Options) (engines.Result, error) {
	res := engines.Result{Engine: "profile", Verdict: engines.Serializable}
	cs := classesOf(tps)
	s := &chainSearch{visitSet: newVisitSet(ctx, opts)}
	if !s.poll(false) { // a context ended before the search started
		_, err := s.settle(&res, false, nil)
		return res, err
	}
	for _, c := range cs {
		reach, next := linkTable(c.prof)
		s.reach, s.next = append(s.reach, reach), append(s.next, next)
	}
	for ci, c := range cs {
		for _, a := range c.prof.Single.Letters() { // a letter it never uses starts no chain
			ch, found := s.search(cs, ci, a)
			if done, err := s.settle(&res, found, func() (*model.Witness, error) {
				return buildWitness(p, tps, ch, opts.LockEdges)
			}); done {
				return res, err
			}
		}
	}
	return res, nil
}

// search looks for a chain from letter a of a thread of class ci back to a
// b with ▷ a b ◁.
func (s *chainSearch) search(cs []*threadClass, ci int, a profiles.Letter) (chain, bool) {
	pr := cs[ci].prof
	if pr.Same[a].Empty() {
		return chain{}, false
	}
	s.tgt = pr.Same[a].Conflicting()
	s.avail, s.used = make([]int, len(cs)), make([]int, len(cs))
	for c := range cs {
		s.avail[c] = len(cs[c].threads)
	}
	s.avail[ci]--
	if !s.relaxed(a) {
		return chain{}, false // not even with threads repeating
	}
	if !s.computeRelevance(pr.Letters()) {
		return chain{}, false
	}
	clear(s.visited)
	s.steps = s.steps[:0]
	if !s.dfs(a, profiles.NewSet(len(s.tgt))) {
		return chain{}, false
	}
	return s.chainOf(cs, ci, a), true
}

// relaxed reports whether the targets are reachable from a at all when
// threads may repeat: one linear search, before the costlier relevance.
func (s *chainSearch) relaxed(a profiles.Letter) bool {
	seen := profiles.NewSet(len(s.tgt))
	frontier := []profiles.Letter{a}
	for len(frontier) > 0 {
		if !s.tick() {
			return false
		}
		l := frontier[len(frontier)-1]
		frontier = frontier[:len(frontier)-1]
		for c, nx := range s.next {
			if s.avail[c] == 0 {
				continue
			}
			if nx[l].Intersects(s.tgt) {
				return true
			}
			for _, e := range nx[l].Letters() {
				if !seen.Has(e) {
					seen.Add(e)
					frontier = append(frontier, e)
				}
			}
		}
	}
	return false
}

// dfs extends the chain from letter cur; banned holds the letters that
// conflict with an exit before cur. Only shortcut-free chains are built: a
// thread may not be entered by a banned letter, since then the threads
// between could be dropped (every chain shortens to one of these, and a
// chain's exits are then distinct, so it has at most 2v links). This prunes
// the detours that make Theorem 2's instances hard.
//
// Invariant: s.used counts the threads of s.steps per class, and s.visited
// holds the states (exit, banned, relevant uses) already known to fail. It
// tries to close the chain before lengthening it, and lengthens it only by
// relevant classes into live letters (relevance.go).
func (s *chainSearch) dfs(cur profiles.Letter, banned profiles.Set) bool {
	insArr, n := entries(cur)
	ins := insArr[:n]
	for c := range s.next {
		if s.used[c] >= s.avail[c] || !s.next[c][cur].Intersects(s.tgt) {
			continue
		}
		for _, in := range ins {
			if banned.Has(in) {
				continue
			}
			for _, e := range s.reach[c][in].Letters() {
				if s.tgt.Has(e) {
					s.steps = append(s.steps, chainStep{c, in, e})
					return true
				}
			}
		}
	}
	nb := banned.Clone()
	for _, in := range ins {
		nb.Add(in)
	}
	for c := range s.next {
		if s.used[c] >= s.avail[c] || !s.relevant(cur, c) {
			continue
		}
		s.used[c]++
		for _, in := range ins {
			if !banned.Has(in) && s.extend(c, in, nb) {
				return true
			}
			if s.stop != "" {
				return false
			}
		}
		s.used[c]--
	}
	return false
}

// extend tries every exit of a class-c thread entered by in.
func (s *chainSearch) extend(c int, in profiles.Letter, banned profiles.Set) bool {
	for _, e := range s.reach[c][in].Letters() {
		if s.stop != "" {
			return false
		}
		if !s.rel.live.Has(e) || !s.visit(e, banned) || !s.feasible(e, banned) {
			continue
		}
		s.steps = append(s.steps, chainStep{c, in, e})
		if s.dfs(e, banned) {
			return true
		}
		s.steps = s.steps[:len(s.steps)-1]
	}
	return false
}

// feasible is forward checking: can a target still be reached from cur
// with the classes not yet used and entries not banned, if threads may
// repeat and the banned set did not grow? If not, no completion exists.
// It is false, too, when a budget ended the search (stop is set).
func (s *chainSearch) feasible(cur profiles.Letter, banned profiles.Set) bool {
	seen := profiles.NewSet(len(banned))
	seen.Add(cur)
	stack := append(s.stack[:0], cur)
	defer func() { s.stack = stack[:0] }()
	for len(stack) > 0 {
		if !s.tick() {
			return false
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		insArr, n := entries(x)
		ins := insArr[:n]
		for c := range s.reach {
			if s.used[c] >= s.avail[c] || !s.relevant(x, c) {
				continue
			}
			for _, in := range ins {
				if banned.Has(in) {
					continue
				}
				exits := s.reach[c][in]
				if exits.Intersects(s.tgt) {
					return true
				}
				for _, y := range exits.Letters() {
					if s.rel.live.Has(y) && !seen.Has(y) {
						seen.Add(y)
						stack = append(stack, y)
					}
				}
			}
		}
	}
	return false
}

// visit marks state (e, the uses of e's relevant classes, banned) and
// reports whether it is new; it also enforces the state limit and the
// deadline.
func (s *chainSearch) visit(e profiles.Letter, banned profiles.Set) bool {
	s.key = s.appendKey(s.key[:0], e)
	for _, x := range banned {
		s.key = binary.LittleEndian.AppendUint64(s.key, x)
	}
	return s.admit(s.key)
}

// chainOf turns the steps found into a chain of concrete threads and the
// letters each is entered and left by.
func (s *chainSearch) chainOf(cs []*threadClass, ci int, a profiles.Letter) chain {
	i := cs[ci].threads[0]
	ch := chain{thread: i, a: a}
	taken := make([]int, len(cs))
	taken[ci] = 1 // thread i itself
	prev := a
	for _, st := range s.steps {
		c := cs[st.class]
		j := c.threads[taken[st.class]]
		taken[st.class]++
		ch.links = append(ch.links, link{thread: j, in: st.in, out: st.out})
		prev = st.out
	}
	for _, b := range cs[ci].prof.Same[a].Letters() {
		if b.Conflicts(prev) {
			ch.b = b
			break
		}
	}
	return ch
}
