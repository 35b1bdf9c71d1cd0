package global

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/engines/brute"
	"github.com/conc-dev/conc/engines/internal/enginetest"
	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/testkit/ordertrace"
	"github.com/conc-dev/conc/verify"
)

// orderedProgram is a random small program with docs/spec.md §3's
// orderings, drawn by one of two generators (by the seed's parity): the
// threads of a random trace (tracedThreads), as predict's projections
// are, or sections built so that the orderings often decide the answer
// (scriptedThreads). Sometimes the first thread forks the last (and may
// join it), and sometimes a thread may skip a stretch that holds no lock
// and no transaction open (an acyclic choice: a regular automaton, whose
// future tables are dense).
func orderedProgram(seed uint64) *model.Program {
	r := rand.New(rand.NewPCG(seed, 0x0d3))
	gen := tracedThreads
	if seed%2 == 1 {
		gen = scriptedThreads
	}
	threads, quiet, names := gen(r, seed)
	forkJoin(r, threads, quiet)
	p := &model.Program{Vars: names[0], Locks: names[1], Msgs: names[2]}
	for t, evs := range threads {
		a := chainOf(evs)
		if q := quiet[t]; r.IntN(3) == 0 && len(q) > 2 {
			i := r.IntN(len(q) - 1)
			j := i + 1 + r.IntN(len(q)-1-i)
			a.Out[q[i]] = append(a.Out[q[i]], model.Edge{To: int32(q[j]), Ev: model.Event{Op: model.OpSkip, Target: -1}})
		}
		enginetest.Annotate(a)
		p.Threads = append(p.Threads, &model.Thread{Name: fmt.Sprintf("T%d", t+1), Auto: a})
	}
	return p
}

// threadsGen draws the threads' events, each thread's quiet states (no
// lock held, no transaction open; its initial state first), and the
// names of the variables, locks and messages.
type threadsGen func(r *rand.Rand, seed uint64) (threads [][]model.Event, quiet [][]int, names [3][]string)

// tracedThreads are the threads of a random trace (testkit/ordertrace:
// accesses, transactions, write and read locks, messages, tokens), each a
// straight line, bare accesses as unary transactions. Messages are m0..,
// tokens t0.. (ordertrace's ids msgs on).
func tracedThreads(r *rand.Rand, seed uint64) ([][]model.Event, [][]int, [3][]string) {
	k, vars, locks, msgs := 2+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
	evs := ordertrace.Events(seed, 6+r.IntN(5*k), k, vars, locks, msgs)
	b := newThreadsBuilder(k)
	for _, e := range evs {
		t := int(e.Thread)
		if e.Op.IsAccess() && !b.open[t] {
			b.add(t, model.Event{Op: model.OpBegin, Target: -1})
			b.add(t, model.Event{Op: e.Op, Target: e.Target})
			b.add(t, model.Event{Op: model.OpEnd, Target: -1})
			continue
		}
		b.add(t, model.Event{Op: e.Op, Target: e.Target})
	}
	return b.threads, b.quiet, [3][]string{numbered("x", vars), numbered("l", locks), append(numbered("m", msgs), numbered("t", msgs)...)}
}

// scriptedThreads are 2 to 4 threads of one or two sections each: a
// transaction of two accesses (of x or y) guarded by nothing, a write
// hold of l, a read hold of l, a hold of token t used as a lock, or a
// take of t (the guard sometimes let go and taken again between the
// accesses), after a wait for message m a quarter of the time, and
// before a post of it a quarter of the time (or an eighth, with the guard
// held, before the transaction); the first thread gives t's first token
// (or two), and a stray give or post sometimes comes between sections.
func scriptedThreads(r *rand.Rand, _ uint64) ([][]model.Event, [][]int, [3][]string) {
	k := 2 + r.IntN(3)
	b := newThreadsBuilder(k)
	for range 1 + r.IntN(2) {
		b.add(0, model.Event{Op: model.OpGive, Target: 1})
	}
	for t := range k {
		for range 1 + r.IntN(2) {
			b.section(r, t)
			switch r.IntN(8) {
			case 0:
				b.add(t, model.Event{Op: model.OpGive, Target: 1})
			case 1:
				b.add(t, model.Event{Op: model.OpPost, Target: 0})
			}
		}
	}
	return b.threads, b.quiet, [3][]string{{"x", "y"}, {"l"}, {"m", "t"}}
}

// guards are the ways a scripted section is held: none, a write hold of
// lock 0, a read hold of it, a hold of token 1, a take of token 1 never
// given back (acquire, release; an epsilon move for none).
var guards = [][2]model.Event{
	{},
	{{Op: model.OpAcquire}, {Op: model.OpRelease}},
	{{Op: model.OpReadAcquire}, {Op: model.OpReadRelease}},
	{{Op: model.OpTake, Target: 1}, {Op: model.OpGive, Target: 1}},
	{{Op: model.OpTake, Target: 1}, {}}, // a token consumed
}

// section adds one scripted section to thread t.
func (b *threadsBuilder) section(r *rand.Rand, t int) {
	g := guards[r.IntN(len(guards))]
	held := g[0].Op != model.OpSkip
	access := func() model.Event {
		return model.Event{Op: []model.Op{model.OpRead, model.OpWrite}[r.IntN(2)], Target: int32(r.IntN(2))}
	}
	if r.IntN(4) == 0 {
		b.add(t, model.Event{Op: model.OpWait, Target: 0})
	}
	post := r.IntN(8) // 0, 1: after the section; 2: once the guard is held
	if held {
		b.add(t, g[0])
	}
	if post == 2 {
		b.add(t, model.Event{Op: model.OpPost, Target: 0})
	}
	b.add(t, model.Event{Op: model.OpBegin, Target: -1})
	b.add(t, access())
	if held && r.IntN(3) == 0 {
		b.add(t, g[1])
		b.add(t, g[0])
	}
	b.add(t, access())
	b.add(t, model.Event{Op: model.OpEnd, Target: -1})
	if held {
		b.add(t, g[1])
	}
	if post < 2 {
		b.add(t, model.Event{Op: model.OpPost, Target: 0})
	}
}

// threadsBuilder collects the threads' events and their quiet states.
type threadsBuilder struct {
	threads [][]model.Event
	quiet   [][]int
	open    []bool
	held    []int
}

func newThreadsBuilder(k int) *threadsBuilder {
	b := &threadsBuilder{threads: make([][]model.Event, k), quiet: make([][]int, k), open: make([]bool, k), held: make([]int, k)}
	for t := range k {
		b.quiet[t] = []int{0}
	}
	return b
}

// holds is how an event changes the locks its thread holds.
var holds = map[model.Op]int{model.OpAcquire: 1, model.OpReadAcquire: 1, model.OpRelease: -1, model.OpReadRelease: -1}

// add appends ev to thread t (its target -1 unless it has one).
func (b *threadsBuilder) add(t int, ev model.Event) {
	if !ev.Op.HasTarget() {
		ev.Target = -1
	}
	switch ev.Op {
	case model.OpBegin, model.OpEnd:
		b.open[t] = ev.Op == model.OpBegin
	default:
		b.held[t] += holds[ev.Op]
	}
	b.threads[t] = append(b.threads[t], ev)
	if !b.open[t] && b.held[t] == 0 {
		b.quiet[t] = append(b.quiet[t], len(b.threads[t]))
	}
}

// forkJoin makes the first thread fork the last at one of its quiet
// states, a third of the time, and then join it at its end half the time.
func forkJoin(r *rand.Rand, threads [][]model.Event, quiet [][]int) {
	k := len(threads)
	if r.IntN(3) != 0 {
		return
	}
	at := quiet[0][r.IntN(len(quiet[0]))]
	fork := model.Event{Op: model.OpFork, Target: int32(k - 1)}
	threads[0] = append(threads[0][:at:at], append([]model.Event{fork}, threads[0][at:]...)...)
	for i, q := range quiet[0] {
		if q >= at {
			quiet[0][i]++
		}
	}
	if r.IntN(2) == 0 && len(quiet[0]) > 0 && quiet[0][len(quiet[0])-1] == len(threads[0]) {
		threads[0] = append(threads[0], model.Event{Op: model.OpJoin, Target: int32(k - 1)})
	}
}

// chainOf is evs as a path of edges from state 0.
func chainOf(evs []model.Event) *model.Automaton {
	a := &model.Automaton{Out: make([][]model.Edge, len(evs)+1)}
	for i, e := range evs {
		a.Out[i] = []model.Edge{{To: int32(i + 1), Ev: e}}
	}
	return a
}

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

// TestGlobalOrderingsAgainstBrute is the engine's claim on docs/spec.md
// §3's orderings: on random small programs with read locks, messages and
// tokens (orderedProgram; 6,000 with CONC_LONG=1, 1,500 in the quick
// suite) the global engine gives brute's verdict (brute explores these
// loop-free programs whole) with every reduction on, with the
// partial-order reduction, the local moves or the compact encoding alone,
// and (every 25th program) with none, and every witness replays under
// verify, which checks the orderings. It also counts the programs whose
// orderings decide the answer (a violation with them dropped, none with
// them), which an engine that dropped them would get wrong.
func TestGlobalOrderingsAgainstBrute(t *testing.T) {
	t.Parallel()
	n := testflag.N(1500, 6000)
	var verdicts [2]int
	matter, regular := 0, 0
	cfgs := []config{allReductions, {por: true}, {local: true}, {compact: true}, {local: true, por: true, compact: true}}
	for seed := uint64(0); seed < uint64(n); seed++ {
		p := orderedProgram(seed)
		require.NoError(t, engines.ValidOrderedProgram(p))
		want, err := brute.Check(context.Background(), p, engines.Options{})
		require.NoError(t, err)
		require.NotEqual(t, engines.Unknown, want.Verdict, "seed %d: %s", seed, want.Reason)
		for i, cfg := range append(cfgs, config{}) {
			if i == len(cfgs) && seed%25 != 0 {
				break
			}
			got := checkGlobal(t, p, engines.Options{}, cfg)
			require.Equal(t, want.Verdict, got.Verdict, "seed %d, %+v:\n%s", seed, cfg, describe(p))
		}
		if want.Verdict == engines.Violation {
			small := shrinkWitness(p, want.Witness)
			require.NoError(t, verify.Witness(p, small), "seed %d", seed)
		}
		dropped := checkGlobal(t, dropOrderings(p), engines.Options{}, allReductions)
		matter += btoi(want.Verdict == engines.Serializable && dropped.Verdict == engines.Violation)
		regular += btoi(p.Class() == model.Regular)
		verdicts[btoi(want.Verdict == engines.Violation)]++
	}
	t.Logf("%d programs: [serializable violation] %v, %d whose orderings decide, %d regular", n, verdicts, matter, regular)
	require.Greater(t, verdicts[0], n/5)
	require.Greater(t, verdicts[1], n/5)
	require.Greater(t, matter, n/20)
	require.Greater(t, regular, n/10)
}

// dropOrderings is p with every ordering event an epsilon move: the
// program as an engine that drops the orderings sees it.
func dropOrderings(p *model.Program) *model.Program {
	q := *p
	q.Threads = nil
	for _, th := range p.Threads {
		a := *th.Auto
		a.Out = make([][]model.Edge, len(th.Auto.Out))
		for i, es := range th.Auto.Out {
			for _, e := range es {
				if e.Ev.Op.IsExtension() {
					e.Ev = model.Event{Op: model.OpSkip, Target: -1}
				}
				a.Out[i] = append(a.Out[i], e)
			}
		}
		q.Threads = append(q.Threads, &model.Thread{Name: th.Name, Auto: &a})
	}
	return &q
}

// describe prints p's threads one a line, for a failure's message.
func describe(p *model.Program) string {
	var b strings.Builder
	for _, th := range p.Threads {
		fmt.Fprintf(&b, "%s:", th.Name)
		for q, out := range th.Auto.Out {
			for _, e := range out {
				fmt.Fprintf(&b, " %d>%d %s", q, e.To, e.Ev.Op)
				if e.Ev.Op.HasTarget() {
					fmt.Fprintf(&b, ":%s", p.TargetName(e.Ev))
				}
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The orderings by hand: read holds shared, a write hold excluding them;
// a wait after every post; a take after a give. Each case under every
// configuration of the hand tests.
func TestGlobalOrderingsHandBuilt(t *testing.T) {
	cases := []struct {
		name  string
		specs []string
		want  engines.Verdict
	}{
		{"readers share", []string{"racq:l b r:x r:x e rrel:l", "racq:l b w:x e rrel:l"}, engines.Violation},
		{"writer excludes readers", []string{"racq:l b r:x r:x e rrel:l", "acq:l b w:x e rel:l"}, engines.Serializable},
		{"reader excludes writer", []string{"acq:l b r:x r:x e rel:l", "racq:l b w:x e rrel:l"}, engines.Serializable},
		{"read lock split", []string{"b racq:l r:x rrel:l acq:l w:x rel:l e", "acq:l b w:x e rel:l"}, engines.Violation},
		{"message orders", []string{"b r:x r:x e post:m", "wait:m b w:x e"}, engines.Serializable},
		{"message too late", []string{"b r:x e post:m b r:x e", "wait:m b w:x e"}, engines.Serializable},
		{"message inside", []string{"b r:x post:m r:x e", "wait:m b w:x e"}, engines.Violation},
		{"every post first", []string{"b r:x r:x e post:m", "post:m", "wait:m b w:x e"}, engines.Serializable},
		{"token as lock", []string{"take:s b r:x r:x e give:s", "take:s b w:x e give:s", "give:s"}, engines.Serializable},
		{"token as lock split", []string{"take:s b r:x give:s take:s w:x e give:s", "take:s b w:x e give:s", "give:s"}, engines.Violation},
		{"two tokens", []string{"take:s b r:x r:x e give:s", "take:s b w:x e give:s", "give:s give:s"}, engines.Violation},
		{"no token", []string{"b r:x r:x e", "take:s b w:x e"}, engines.Serializable},
		// Whichever takes the one token, the other waits for ever: the
		// search must try both.
		{"one token, two takers", []string{"give:s", "take:s", "take:s b r:x r:x e", "b w:x e"}, engines.Violation},
		// T3 holds l once T1 and T2 may go: T2's read acquire waits for T3's
		// release, which the search must try before T1's write.
		{"a writer lets a reader in", []string{"wait:m b w:x e", "wait:m racq:l b r:x r:x e rrel:l", "acq:l post:m b w:y e rel:l"}, engines.Violation},
		// T3 read-holds l once T1 and T2 may go: T2's write acquire waits
		// for T3's read release.
		{"a reader lets a writer in", []string{"wait:m b w:x e", "wait:m acq:l b r:x r:x e rel:l", "racq:l post:m b w:y e rrel:l"}, engines.Violation},
		// T2's wait needs T3's post, which the search must try before T1's
		// write.
		{"a poster lets a waiter in", []string{"b w:x e", "wait:m b r:x r:x e", "b w:y e post:m"}, engines.Violation},
		// T1 may post or not, reaching one state either way: the count of
		// posts made tells the two apart.
		{"a post or none", []string{"@ 0>1 skip; 0>1 post:m", "wait:m b r:x r:x e", "b w:x e"}, engines.Violation},
		// No token is left, but T3 gives one: T2's take is not blocked.
		{"a giver lets a taker in", []string{"b w:x e", "take:s b r:x r:x e", "b w:y e give:s"}, engines.Violation},
	}
	for _, c := range cases {
		p := enginetest.BuildProg(t, c.specs...)
		want, err := brute.Check(context.Background(), p, engines.Options{})
		require.NoError(t, err)
		require.Equal(t, c.want, want.Verdict, "%s: brute", c.name)
		for name, cfg := range configs {
			got := checkGlobal(t, p, engines.Options{}, cfg)
			require.Equal(t, c.want, got.Verdict, "%s (%s)", c.name, name)
		}
	}
}

// The orderings are refused where they are not honoured: under lock
// edges (their conflicts are not modelled) and in a program with loops
// (its counts are not bounded). --ignore-sync drops them.
func TestGlobalOrderingsRefused(t *testing.T) {
	p := enginetest.BuildProg(t, "take:s b r:x r:x e give:s", "give:s b w:x e")
	e, err := engines.Lookup("global")
	require.NoError(t, err)
	require.True(t, e.Decides.Orderings)
	require.NoError(t, e.Supports(p, engines.Options{}))
	require.ErrorContains(t, e.Supports(p, engines.Options{LockEdges: true}), "--lock-edges")
	require.NoError(t, e.Supports(p, engines.Options{LockEdges: true, IgnoreSync: true}))
	_, err = Check(context.Background(), p, engines.Options{LockEdges: true})
	require.Error(t, err)
	loop := enginetest.BuildProg(t, "@ 0>1 give:s; 1>2 b; 2>3 r:x; 3>0 e", "take:s b w:x e")
	require.ErrorContains(t, e.Supports(loop, engines.Options{}), "loop-free")
	res, err := Check(context.Background(), loop, engines.Options{IgnoreSync: true})
	require.NoError(t, err)
	require.Equal(t, engines.Serializable, res.Verdict)
}
