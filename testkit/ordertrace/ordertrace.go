// Package ordertrace draws random traces that use docs/spec.md §3's
// ordering extension, for the tests of the commands that read it (the
// monitor, the atomicity tracker, predict), and matches their tokens'
// gives and takes as a run does.
package ordertrace

import (
	"math/rand/v2"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// Events is a random trace that uses docs/spec.md §3's ordering
// extension besides accesses, transactions and locks, for the tests of
// the commands that read it: msgs messages and as many tokens: read and write
// holds of a few locks (readers overlapping), and posts and waits of a
// few messages, every post of a message before its first wait. It is
// valid by construction (the reader accepts its STD text as it is).
func Events(seed uint64, n, threads, vars, locks, msgs int) []trace.Event {
	g := orderingGen{rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), threads: threads, vars: vars,
		writer: make([]int32, locks), readers: make([]map[int32]bool, locks),
		waited: make([]bool, msgs), inTxn: make([]bool, threads), held: make([][]int32, threads)}
	for l := range g.writer {
		g.writer[l], g.readers[l] = -1, map[int32]bool{}
	}
	for len(g.evs) < n {
		g.step(int32(g.rng.IntN(threads)))
	}
	return g.evs
}

type orderingGen struct {
	rng           *rand.Rand
	threads, vars int
	evs           []trace.Event
	writer        []int32          // per lock: the write holder, -1 if none
	readers       []map[int32]bool // per lock: its read holders
	waited        []bool           // per message: a wait came
	tokens        []int            // per token: given and not yet taken
	inTxn         []bool
	held          [][]int32 // per thread: the locks it holds, either way, in order
}

func (g *orderingGen) emit(t int32, op model.Op, target int32) {
	g.evs = append(g.evs, trace.Event{Thread: t, Op: op, Target: target, Loc: -1, Line: int64(len(g.evs) + 1)})
}

// step emits one event of thread t, or none when the one drawn cannot
// happen now.
func (g *orderingGen) step(t int32) {
	switch k := g.rng.IntN(10); {
	case k < 4:
		op := model.OpRead
		if g.rng.IntN(2) == 0 {
			op = model.OpWrite
		}
		g.emit(t, op, int32(g.rng.IntN(g.vars)))
	case k < 5:
		g.inTxn[t] = !g.inTxn[t]
		g.emit(t, map[bool]model.Op{true: model.OpBegin, false: model.OpEnd}[g.inTxn[t]], -1)
	case k < 8:
		g.lockStep(t)
	case k < 9:
		g.messageStep(t)
	default:
		g.tokenStep(t)
	}
}

// tokenStep gives a token, or takes one given and not yet taken. The
// tokens are named after the messages (ids len(waited) on).
func (g *orderingGen) tokenStep(t int32) {
	if g.tokens == nil {
		g.tokens = make([]int, len(g.waited))
	}
	s := g.rng.IntN(len(g.tokens))
	id := int32(len(g.waited) + s)
	if g.tokens[s] > 0 && g.rng.IntN(2) == 0 {
		g.tokens[s]--
		g.emit(t, model.OpTake, id)
		return
	}
	g.tokens[s]++
	g.emit(t, model.OpGive, id)
}

// lockStep releases t's latest lock, or takes one for reading or writing.
func (g *orderingGen) lockStep(t int32) {
	if h := g.held[t]; len(h) > 0 && g.rng.IntN(2) == 0 {
		l := h[len(h)-1]
		g.held[t] = h[:len(h)-1]
		if g.writer[l] == t {
			g.writer[l] = -1
			g.emit(t, model.OpRelease, l)
			return
		}
		delete(g.readers[l], t)
		g.emit(t, model.OpReadRelease, l)
		return
	}
	l := int32(g.rng.IntN(len(g.writer)))
	switch {
	case g.writer[l] != -1 || g.readers[l][t]:
	case g.rng.IntN(2) == 0:
		g.readers[l][t] = true
		g.held[t] = append(g.held[t], l)
		g.emit(t, model.OpReadAcquire, l)
	case len(g.readers[l]) == 0:
		g.writer[l] = t
		g.held[t] = append(g.held[t], l)
		g.emit(t, model.OpAcquire, l)
	}
}

// messageStep posts a message no one waited for yet, or waits for one.
func (g *orderingGen) messageStep(t int32) {
	m := int32(g.rng.IntN(len(g.waited)))
	if !g.waited[m] && g.rng.IntN(3) != 0 {
		g.emit(t, model.OpPost, m)
		return
	}
	g.waited[m] = true
	g.emit(t, model.OpWait, m)
}

// FIFOTargets is evs with each token event's target made its match's: the
// k-th take of a token and the k-th give of it share a target no other
// event has (docs/spec.md §3: a take follows the give it takes, the oldest
// not yet taken), so that the tests' naive conflict relations can match them pairwise.
func FIFOTargets(evs []trace.Event) []trace.Event {
	out := slices.Clone(evs)
	gives, takes := map[int32]int32{}, map[int32]int32{}
	id := func(s, k int32) int32 { return 1<<24 + s<<12 + k }
	for i, e := range out {
		switch e.Op {
		case model.OpGive:
			out[i].Target = id(e.Target, gives[e.Target])
			gives[e.Target]++
		case model.OpTake:
			out[i].Target = id(e.Target, takes[e.Target])
			takes[e.Target]++
		}
	}
	return out
}
