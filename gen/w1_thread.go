package gen

import (
	"fmt"

	"github.com/conc-dev/conc/dfa"
)

// w1Main is a main state of thread Di of the w1 program, between moves:
// its automaton's state q, its slot s, the letter p of its last move (-1
// before the first) and, for the leader, how many letters it has read,
// saturating at m. Its held locks are a function of it: slot s, Gi, and
// the deny locks of every letter but p.
type w1Main struct{ q, s, p, c int }

// w1Thread writes the automaton of one thread of the w1 program.
type w1Thread struct {
	w     *w1Writer
	i     int
	d     *dfa.DFA
	lines []*node
	fresh int
	names map[w1Main]string
	work  []w1Main
	dones map[string]bool
}

// thread writes Di as an automaton thread: setup (join, touch the others'
// G locks, take Gi), the moves between main states, and the end.
func (w *w1Writer) thread(i int) *node {
	t := &w1Thread{w: w, i: i, d: w.set.DFAs[i], names: map[w1Main]string{}, dones: map[string]bool{}}
	t.lines = append(t.lines, leaf("init start"))
	setup := []string{fmt.Sprintf("acquire %s", w.slot(w.k-i))}
	if i == 0 {
		setup = append([]string{"begin", "write c0"}, setup...)
	}
	for j := range w.k {
		if j != i {
			setup = append(setup, fmt.Sprintf("acquire G%d", j), fmt.Sprintf("release G%d", j))
		}
	}
	setup = append(setup, fmt.Sprintf("acquire G%d", i))
	t.path("start", t.main(w1Main{q: 0, s: w.k - i, p: -1}), setup...)
	for len(t.work) > 0 {
		st := t.work[len(t.work)-1]
		t.work = t.work[:len(t.work)-1]
		t.moves(st)
	}
	return block(fmt.Sprintf("thread D%d automaton", i), t.lines)
}

// main names main state st, queueing it for its moves the first time.
func (t *w1Thread) main(st w1Main) string {
	if n, ok := t.names[st]; ok {
		return n
	}
	p := "none"
	if st.p >= 0 {
		p = t.w.letterTag(st.p)
	}
	n := fmt.Sprintf("q%d_R%d_%s", st.q, st.s, p)
	if t.i == 0 {
		n += fmt.Sprintf("_len%d", st.c)
	}
	t.names[st] = n
	t.work = append(t.work, st)
	return n
}

// moves writes the moves out of main state st: one per letter the
// automaton can read, and the end move from an accepting state (the
// leader's only after m letters).
func (t *w1Thread) moves(st w1Main) {
	next := (st.s + 1) % (t.w.k + 1)
	for a, r := range t.d.Delta[st.q] {
		if r < 0 {
			continue
		}
		to := w1Main{q: r, s: next, p: a, c: min(st.c+1, t.w.m)}
		t.path(t.names[st], t.main(to), t.move(st, a)...)
	}
	if t.d.Accept[st.q] && (t.i > 0 || st.c >= t.w.m) {
		done := fmt.Sprintf("done_R%d", next)
		t.path(t.names[st], done, t.move(st, len(t.w.set.Alphabet))...)
		if !t.dones[done] {
			t.dones[done] = true
			t.path(done, "fin"+done[len("done"):], t.finish()...)
		}
	}
}

// move is the events of a move from st with letter a: take the next slot,
// check the previous thread's letter, trade deny locks, leave the slot.
func (t *w1Thread) move(st w1Main, a int) []string {
	w := t.w
	evs := []string{"acquire " + w.slot(st.s+1)}
	if t.i > 0 {
		l := w.deny(t.i-1, a)
		evs = append(evs, "acquire "+l, "release "+l)
	}
	if t.i < w.k-1 {
		switch {
		case st.p < 0:
			for b := range w.letters() {
				if b != a {
					evs = append(evs, "acquire "+w.deny(t.i, b))
				}
			}
		case st.p != a:
			evs = append(evs, "release "+w.deny(t.i, a), "acquire "+w.deny(t.i, st.p))
		}
	}
	return append(evs, "release "+w.slot(st.s))
}

// finish is what a thread does after its end move: the leader reads the
// last chain variable and ends its transaction; Di reads c(i-1), then
// writes ci in a transaction of its own.
func (t *w1Thread) finish() []string {
	if t.i == 0 {
		return []string{fmt.Sprintf("read c%d", t.w.k-1), "end"}
	}
	return []string{"begin", fmt.Sprintf("read c%d", t.i-1), "end", "begin", fmt.Sprintf("write c%d", t.i), "end"}
}

// path writes edges from -> ... -> to labelled evs, through fresh states.
func (t *w1Thread) path(from, to string, evs ...string) {
	cur := from
	for j, ev := range evs {
		nxt := to
		if j < len(evs)-1 {
			nxt = t.fresh1()
		}
		t.lines = append(t.lines, leaf(fmt.Sprintf("%s -> %s : %s", cur, nxt, ev)))
		cur = nxt
	}
}

func (t *w1Thread) fresh1() string {
	t.fresh++
	return fmt.Sprintf("t%d", t.fresh)
}
