package profile

import (
	"context"
	"encoding/binary"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/profiles"
)

// Product decides p by the paper's construction of Theorem 1 instead
// of the chain search: the product of the threads' profile automata with a
// monitor of normal runs. It answers what the profile engine answers: the
// tests hold Decide to it on every program they draw, so it lives with them.
func Product(ctx context.Context, p *model.Program, opts engines.Options) (engines.Result, error) {
	return withProfiles(ctx, p, opts, decideProduct)
}

// The paper's construction for Theorem 1: replace each thread by its profile
// automaton P_i (profiles.ProfileAutomaton), form the product of the P_i, and
// intersect it with a monitor for non-serializability that, since normal runs
// suffice (Lemma 2), only watches normal runs. Such a run is: a prefix of P_i
// that stops inside a transaction T, then whole runs of the other P_j one
// after another, then the rest of T. The monitor state is the set Rch of
// letters accessed by transactions of other threads that T reaches in the
// conflict graph; a serial thread's transaction joins when one of its
// accesses conflicts with T's letters or with Rch (then its later
// transactions join by program order), and T closes a cycle when it goes on
// to access a letter that conflicts with Rch. Product states are (which
// threads have run, per class; Rch), O(k·2^{2v}) of them with the prefix of
// T. Serial threads only run maximal runs of their P_j: a longer run never
// shrinks Rch, and the final test is monotone in Rch.

// pEvent is an event of a profile automaton run: a letter, or -1 with op
// begin/end.
type pEvent struct {
	op     model.Op
	letter profiles.Letter
}

// pClass is a thread class with its profile automaton and maximal runs.
type pClass struct {
	*threadClass
	auto *model.Automaton
	runs [][]pEvent
}

// productSearch explores the serial phase for one prefix of thread i.
type productSearch struct {
	visitSet
	cs     []*pClass
	avail  []int
	used   []int
	s0     profiles.Set // letters T accessed before the others ran
	finish []profiles.Letter
	key    []byte
	stack  []pStep
	b      profiles.Letter
}

// pStep is one serial thread of the normal run: class and run index.
type pStep struct{ class, run int }

func decideProduct(ctx context.Context, p *model.Program, tps []ThreadProfiles, opts engines.Options) (engines.Result, error) {
	res := engines.Result{Engine: "profile", Verdict: engines.Serializable}
	var cs []*pClass
	for _, c := range classesOf(tps) {
		a := profiles.ProfileAutomaton(c.prof)
		cs = append(cs, &pClass{threadClass: c, auto: a, runs: maximalRuns(a)})
	}
	s := &productSearch{visitSet: newVisitSet(ctx, opts), cs: cs}
	for ci, c := range cs {
		for _, pre := range interruptions(c.auto) {
			ch, found := s.explore(ci, pre)
			if done, err := s.settle(&res, found, func() (*model.Witness, error) {
				return buildWitness(p, tps, ch, opts.LockEdges)
			}); done {
				return res, err
			}
		}
	}
	return res, nil
}

// interruption is a prefix of P_i stopping inside a transaction: the letters
// the open transaction accessed, and the letters it may access next.
type interruption struct {
	s0     []profiles.Letter
	finish []profiles.Letter
}

// interruptions enumerates the prefixes of a profile automaton (a DAG) that
// stop inside a transaction.
func interruptions(a *model.Automaton) []interruption {
	var out []interruption
	var walk func(q int32, open []profiles.Letter)
	walk = func(q int32, open []profiles.Letter) {
		if a.InTxn[q] {
			out = append(out, interruption{s0: append([]profiles.Letter(nil), open...), finish: accessesInTxn(a, q)})
		}
		for _, e := range a.Out[q] {
			switch l := profiles.LetterOf(e.Ev); {
			case l >= 0:
				walk(e.To, append(open, l))
			case e.Ev.Op == model.OpBegin || e.Ev.Op == model.OpEnd:
				walk(e.To, nil)
			default:
				walk(e.To, open)
			}
		}
	}
	walk(a.Init, nil)
	return out
}

// accessesInTxn lists the letters accessed on paths from q that stay in the
// open transaction.
func accessesInTxn(a *model.Automaton, q int32) []profiles.Letter {
	var ls []profiles.Letter
	for _, e := range a.Out[q] {
		if e.Ev.Op == model.OpEnd {
			continue
		}
		if l := profiles.LetterOf(e.Ev); l >= 0 {
			ls = append(ls, l)
		}
		ls = append(ls, accessesInTxn(a, e.To)...)
	}
	return ls
}

// maximalRuns lists the event sequences of the paths of a profile automaton
// from Init to a state without out-edges.
func maximalRuns(a *model.Automaton) [][]pEvent {
	var out [][]pEvent
	var walk func(q int32, run []pEvent)
	walk = func(q int32, run []pEvent) {
		if len(a.Out[q]) == 0 {
			out = append(out, append([]pEvent(nil), run...))
		}
		for _, e := range a.Out[q] {
			walk(e.To, append(run, pEvent{e.Ev.Op, profiles.LetterOf(e.Ev)}))
		}
	}
	walk(a.Init, nil)
	return out
}

// explore runs the monitor over the serial phase after prefix pre of a
// thread of class ci.
func (s *productSearch) explore(ci int, pre interruption) (chain, bool) {
	if len(pre.s0) == 0 || len(pre.finish) == 0 {
		return chain{}, false // T has no edge out, or none back
	}
	w := len(s.cs[ci].prof.Single)
	s.s0 = profiles.NewSet(w)
	for _, l := range pre.s0 {
		s.s0.Add(l)
	}
	s.finish = pre.finish
	s.avail, s.used = make([]int, len(s.cs)), make([]int, len(s.cs))
	for c := range s.cs {
		s.avail[c] = len(s.cs[c].threads)
	}
	s.avail[ci]--
	clear(s.visited)
	s.stack = s.stack[:0]
	if !s.dfs(profiles.NewSet(w)) {
		return chain{}, false
	}
	return s.chainOf(ci), true
}

// dfs explores from monitor state (s.used, rch). Invariant: s.stack holds the
// serial threads run so far and rch is the monitor's set after them.
func (s *productSearch) dfs(rch profiles.Set) bool {
	conf := rch.Conflicting()
	for _, b := range s.finish {
		if conf.Has(b) {
			s.b = b
			return true
		}
	}
	for c, pc := range s.cs {
		if s.used[c] >= s.avail[c] {
			continue
		}
		s.used[c]++
		for r, run := range pc.runs {
			next, _, _ := s.runSerial(run, rch)
			if next.Equal(rch) || !s.visit(next) {
				continue
			}
			s.stack = append(s.stack, pStep{c, r})
			if s.dfs(next) {
				return true
			}
			s.stack = s.stack[:len(s.stack)-1]
			if s.stop != "" {
				return false
			}
		}
		s.used[c]--
	}
	return false
}

// runSerial is the monitor's step for one whole serial run: it returns the
// new Rch, the index of the access at which the run's transactions started to
// be reached (-1 if never), and the letters the run added.
func (s *productSearch) runSerial(run []pEvent, rch profiles.Set) (profiles.Set, int, profiles.Set) {
	before := rch.Clone()
	before.Or(s.s0)
	conf := before.Conflicting()
	added := profiles.NewSet(len(rch))
	entry := -1
	var open []profiles.Letter
	for k, e := range run {
		switch {
		case e.letter < 0:
			open = open[:0]
		case entry >= 0:
			added.Add(e.letter)
		default:
			open = append(open, e.letter)
			if conf.Has(e.letter) {
				entry = k
				for _, l := range open {
					added.Add(l)
				}
			}
		}
	}
	next := rch.Clone()
	next.Or(added)
	return next, entry, added
}

func (s *productSearch) visit(rch profiles.Set) bool {
	s.key = s.key[:0]
	for _, u := range s.used {
		s.key = binary.AppendUvarint(s.key, uint64(u))
	}
	for _, x := range rch {
		s.key = binary.LittleEndian.AppendUint64(s.key, x)
	}
	return s.admit(s.key)
}

// chainOf reads the chain back from the serial runs on the stack: starting
// from a letter of Rch that conflicts with b, it finds the serial thread that
// added it (its exit) and the access at which that thread was reached (its
// entry), which conflicts with a letter of T (then the chain is complete) or
// with a letter an earlier serial thread added, and so on backwards.
func (s *productSearch) chainOf(ci int) chain {
	added := make([]profiles.Set, len(s.stack))
	entries := make([]profiles.Letter, len(s.stack))
	rch := profiles.NewSet(len(s.s0))
	for k, st := range s.stack {
		run := s.cs[st.class].runs[st.run]
		next, entry, add := s.runSerial(run, rch)
		added[k], entries[k], rch = add, run[entry].letter, next
	}
	var rev []link // the chain's links, last first, thread = stack index
	want, k := s.b, len(s.stack)
	var a profiles.Letter
	for {
		var out profiles.Letter
		k, out = lastAdder(added, k, want)
		rev = append(rev, link{thread: k, in: entries[k], out: out})
		if l, ok := conflictIn(s.s0, entries[k]); ok {
			a = l
			break
		}
		want = entries[k]
	}
	ch := chain{thread: s.cs[ci].threads[0], a: a, b: s.b}
	taken := make([]int, len(s.cs))
	taken[ci] = 1
	for k := len(rev) - 1; k >= 0; k-- {
		st := s.stack[rev[k].thread]
		rev[k].thread = s.cs[st.class].threads[taken[st.class]]
		taken[st.class]++
		ch.links = append(ch.links, rev[k])
	}
	return ch
}

// lastAdder finds the last of added[:k] with a letter conflicting with want,
// and that letter. Rch is the union of the added sets, and every letter
// sought conflicts with Rch or with T's letters, so one exists.
func lastAdder(added []profiles.Set, k int, want profiles.Letter) (int, profiles.Letter) {
	for k--; k >= 0; k-- {
		if l, ok := conflictIn(added[k], want); ok {
			return k, l
		}
	}
	panic("profile engine: monitor lost the origin of a letter")
}

// conflictIn returns a letter of s that conflicts with l.
func conflictIn(s profiles.Set, l profiles.Letter) (profiles.Letter, bool) {
	for _, x := range s.Letters() {
		if x.Conflicts(l) {
			return x, true
		}
	}
	return 0, false
}
