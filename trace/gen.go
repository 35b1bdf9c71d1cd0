package trace

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/conc-dev/conc/model"
)

// GenOptions shape a synthetic trace. Transactions take one lock and touch
// only the variables that lock guards (x_v is guarded by l_{v mod Locks}),
// so they are two-phase locked and serializable; Unprotected is the chance
// that an access ignores the rule, which is how violations get in.
type GenOptions struct {
	Seed        uint64
	Events      int64   // about this many events (threads finish their step)
	Threads     int     // at least 1
	Vars        int     // at least 1
	Locks       int     // 0: no locks, every access is unprotected
	TxnLen      int     // accesses per transaction, uniform in 1..TxnLen
	Unprotected float64 // chance an access picks any variable
	Unary       float64 // chance a step is a single access outside transactions
	Nested      float64 // chance a transaction has an inner begin/end
	Writes      float64 // chance an access is a write
	Hot         int     // if > 0, unprotected accesses pick among the first Hot variables
	Fork        bool    // thread 0 forks the others first and joins them last
}

// RandomDefaults are the sizes of conc gen random --trace's trace that
// its flags leave out: with one lock every access is guarded by it and
// every trace is serializable, so two locks and four threads, whose
// unprotected accesses make the default trace (seed 1, 1000 events)
// violate, as observed and as predicted.
var RandomDefaults = GenOptions{Threads: 4, Vars: 4, Locks: 2, TxnLen: 4}

// Random is o as conc gen random --trace draws it: transactions take one
// lock and touch what it guards, except for some unprotected accesses,
// which is how violations get in (without locks every access is
// unprotected); sizes left 0 are RandomDefaults' (locks too, unless
// locksGiven: an explicit 0 is none), and at least 2.
func (o GenOptions) Random(locksGiven bool) GenOptions {
	or := func(n, def int) int {
		if n == 0 {
			return def
		}
		return n
	}
	if !locksGiven {
		o.Locks = RandomDefaults.Locks
	}
	o.Threads = max(or(o.Threads, RandomDefaults.Threads), 2)
	o.Vars = max(or(o.Vars, RandomDefaults.Vars), 2)
	o.TxnLen = max(or(o.TxnLen, RandomDefaults.TxnLen), 2)
	o.Unprotected, o.Unary, o.Writes = 0.1, 0.1, 0.5
	return o
}

// Gen generates a synthetic trace step by step, in memory independent of
// its length. Thread i is named T<i>, variable v x<v>, lock l l<l>; event
// ids are these numbers and Loc is -1.
type Gen struct {
	o       GenOptions
	rng     *rand.Rand
	plans   [][]Event // per thread: the rest of its current step
	owner   []int32   // per lock: holder or -1
	alive   []bool    // forked and not finished
	emitted int64
	joining int // fork mode: next thread thread 0 joins
	forking int // fork mode: next thread thread 0 plans to fork
	joinTxn int // fork mode: 1 if the joins form a transaction, 2 once its begin is out
}

// NewGen starts a generator; options out of range are clamped.
func NewGen(o GenOptions) *Gen {
	o.Threads, o.Vars, o.TxnLen = max(o.Threads, 1), max(o.Vars, 1), max(o.TxnLen, 1)
	g := &Gen{o: o, rng: rand.New(rand.NewPCG(o.Seed, 0x5eed)), plans: make([][]Event, o.Threads),
		owner: make([]int32, o.Locks), alive: make([]bool, o.Threads)}
	for i := range g.owner {
		g.owner[i] = -1
	}
	g.alive[0] = true
	g.forking, g.joining = 1, 1
	if o.Fork {
		// Joins alone, joins in a transaction, or (like a Java main thread
		// running an atomic method) thread 0's whole life in one.
		switch g.rng.IntN(3) {
		case 1:
			g.joinTxn = 1
		case 2:
			g.joinTxn = 2
			g.plans[0] = append(g.plans[0], Event{Op: model.OpBegin, Target: -1})
		}
	}
	if !o.Fork {
		for i := range g.alive {
			g.alive[i] = true
		}
		g.forking = o.Threads
	}
	return g
}

// Read fills evs with the next events, like Reader.Read.
func (g *Gen) Read(evs []Event) (int, error) {
	for i := range evs {
		if !g.step(&evs[i]) {
			if i == 0 {
				return 0, io.EOF
			}
			return i, nil
		}
	}
	return len(evs), nil
}

// step emits one event of a random runnable thread.
func (g *Gen) step(ev *Event) bool {
	n := g.o.Threads
	for k, s := 0, g.rng.IntN(n); k < n; k++ {
		t := (s + k) % n
		if !g.alive[t] {
			continue
		}
		if len(g.plans[t]) == 0 {
			if g.emitted >= g.o.Events {
				g.alive[t] = t == 0 && g.o.Fork
				continue
			}
			g.plan(int32(t))
		}
		if e := g.plans[t][0]; e.Op == model.OpAcquire && g.owner[e.Target] >= 0 {
			continue // blocked
		}
		g.pop(ev, int32(t))
		return true
	}
	return g.finish(ev)
}

// finish joins the forked workers in fork mode once they have stopped,
// sometimes inside one transaction (as a main thread's atomic method would).
func (g *Gen) finish(ev *Event) bool {
	switch {
	case !g.o.Fork:
		return false
	case g.joinTxn == 1:
		g.joinTxn = 2
		g.emit(ev, 0, model.OpBegin, -1)
	case g.joining < g.forking:
		g.emit(ev, 0, model.OpJoin, int32(g.joining))
		g.joining++
	case g.joinTxn == 2:
		g.joinTxn = 3
		g.emit(ev, 0, model.OpEnd, -1)
	default:
		return false
	}
	return true
}

func (g *Gen) pop(ev *Event, t int32) {
	e := g.plans[t][0]
	g.plans[t] = g.plans[t][1:]
	switch e.Op {
	case model.OpAcquire:
		g.owner[e.Target] = t
	case model.OpRelease:
		g.owner[e.Target] = -1
	case model.OpFork:
		g.alive[e.Target] = true
	}
	g.emit(ev, t, e.Op, e.Target)
}

func (g *Gen) emit(ev *Event, t int32, op model.Op, target int32) {
	g.emitted++
	*ev = Event{Thread: t, Op: op, Target: target, Loc: -1, Line: g.emitted}
}

// plan queues thread t's next step: a unary access or a transaction.
func (g *Gen) plan(t int32) {
	p := g.plans[t][:0]
	add := func(op model.Op, target int32) { p = append(p, Event{Thread: t, Op: op, Target: target}) }
	l := int32(-1)
	if g.o.Locks > 0 {
		l = int32(g.rng.IntN(g.o.Locks))
	}
	n, txn, nested := 1, g.rng.Float64() >= g.o.Unary, false
	if txn {
		n = 1 + g.rng.IntN(g.o.TxnLen)
		nested = g.rng.Float64() < g.o.Nested
		add(model.OpBegin, -1)
	}
	if l >= 0 {
		add(model.OpAcquire, l)
	}
	for i := 0; i < n; i++ {
		if nested && i == n/2 {
			add(model.OpBegin, -1)
		}
		op := model.OpRead
		if g.rng.Float64() < g.o.Writes {
			op = model.OpWrite
		}
		add(op, g.variable(l))
	}
	if nested {
		add(model.OpEnd, -1)
	}
	if l >= 0 {
		add(model.OpRelease, l)
	}
	if txn {
		add(model.OpEnd, -1)
	}
	if t == 0 && g.forking < g.o.Threads {
		// Fork the next worker somewhere in this step, maybe inside its
		// transaction and while holding its lock.
		i := g.rng.IntN(len(p) + 1)
		p = append(p, Event{})
		copy(p[i+1:], p[i:])
		p[i] = Event{Thread: 0, Op: model.OpFork, Target: int32(g.forking)}
		g.forking++
	}
	g.plans[t] = p
}

// variable picks a variable guarded by lock l, or any with Unprotected.
func (g *Gen) variable(l int32) int32 {
	if l < 0 || g.rng.Float64() < g.o.Unprotected {
		if g.o.Hot > 0 {
			return int32(g.rng.IntN(min(g.o.Hot, g.o.Vars)))
		}
		return int32(g.rng.IntN(g.o.Vars))
	}
	k := int32(g.o.Locks)
	m := (int32(g.o.Vars) - l + k - 1) / k // variables v < Vars with v%k == l
	if m <= 0 {
		return int32(g.rng.IntN(g.o.Vars))
	}
	return l + k*int32(g.rng.IntN(int(m)))
}

// WriteTo writes the rest of the trace in STD format.
func (g *Gen) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	var total int64
	evs := make([]Event, 1024)
	var line []byte
	for {
		n, err := g.Read(evs)
		for _, e := range evs[:n] {
			line = AppendSTD(line[:0], e, GenName)
			k, werr := bw.Write(line)
			total += int64(k)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, bw.Flush()
		}
	}
}

// GenName names Gen's threads (T), variables (x) and locks (l).
func GenName(kind byte, id int32) string {
	return string(kind) + strconv.Itoa(int(id))
}

// AppendSTD appends e as one STD line (with newline, without location);
// name(kind, id) names threads ('T'), variables ('x'), locks ('l') and
// messages ('m').
func AppendSTD(b []byte, e Event, name func(kind byte, id int32) string) []byte {
	b = append(b, name('T', e.Thread)...)
	b = append(b, '|')
	b = append(b, OpName[e.Op]...)
	switch e.Op {
	case model.OpBegin, model.OpEnd:
	default:
		b = append(b, '(')
		kind := byte('x')
		switch e.Op {
		case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
			kind = 'l'
		case model.OpFork, model.OpJoin:
			kind = 'T'
		case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
			kind = 'm'
		}
		b = append(b, name(kind, e.Target)...)
		b = append(b, ')')
	}
	return append(b, '\n')
}
