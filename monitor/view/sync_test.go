package view

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// syncArcs adds to t the precedences --lock-edges makes between the
// transactions of text (a lock's release before each later acquire, a
// fork before the forked thread's transactions, a thread's transactions
// before its join, a post before each wait of its message, a give before
// the take that takes it), read from the text on its own. Under
// --lock-edges a sync event outside a transaction is a unary transaction
// (parseRef was given syncUnary).
func (t *bTrace) syncArcs(text string) {
	txnAt := t.txnOfLine()
	var rels, posts = map[string][]int{}, map[string][]int{}
	gives := map[string][]int{}
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		parts := strings.Split(line, "|")
		op := parts[1]
		k, ok := txnAt[int64(i+1)]
		if !ok {
			continue
		}
		name, arg, _ := strings.Cut(strings.TrimSuffix(op, ")"), "(")
		switch name {
		case "rel":
			rels[arg] = append(rels[arg], k)
		case "acq":
			for _, r := range rels[arg] {
				t.arc(r, k)
			}
		case "fork", "join":
			for j, tx := range t.txns {
				if tx.thread == arg && name == "fork" {
					t.arc(k, j)
				} else if tx.thread == arg {
					t.arc(j, k)
				}
			}
		case "post":
			posts[arg] = append(posts[arg], k)
		case "wait":
			for _, p := range posts[arg] {
				t.arc(p, k)
			}
		case "give":
			gives[arg] = append(gives[arg], k)
		case "take":
			t.arc(gives[arg][0], k)
			gives[arg] = gives[arg][1:]
		}
	}
}

func (t *bTrace) arc(a, b int) {
	if a != b {
		t.arcs = append(t.arcs, [2]int{a, b})
	}
}

// genSyncTrace draws a random STD text with locks, fork and join and
// messages: thread T0 forks the others and may join them once they are
// done; each thread's events are accesses (blind writes frequent),
// acquires and releases of free locks, posts and waits (all posts of a
// message before its first wait), inside transactions or not.
func genSyncTrace(rng *rand.Rand, threads, vars, n int) string {
	g := &syncGen{rng: rng, vars: vars, ts: make([]syncThread, threads), lockFree: []bool{true, true}, waited: map[int]bool{}}
	g.ts[0] = syncThread{forked: true, left: n}
	for i := 1; i < threads; i++ {
		g.ts[i].left = 2 + rng.IntN(n/threads+2)
	}
	for range 3 * n {
		t := rng.IntN(threads)
		if s := &g.ts[t]; s.forked && !s.joined && s.left > 0 {
			s.left--
			g.step(t)
			if s.left == 0 {
				g.finish(t)
			}
		}
	}
	return g.b.String()
}

// syncGen is genSyncTrace's state: per thread, per lock, per message.
type syncGen struct {
	rng      *rand.Rand
	b        strings.Builder
	vars     int
	ts       []syncThread
	lockFree []bool
	waited   map[int]bool
}

type syncThread struct {
	forked, joined, inTxn bool
	left                  int
	held                  []int
}

func (g *syncGen) emit(t int, op string) { fmt.Fprintf(&g.b, "T%d|%s\n", t, op) }

// step emits one event of thread t.
func (g *syncGen) step(t int) {
	s := &g.ts[t]
	switch r := g.rng.IntN(20); {
	case t == 0 && r < 2:
		g.forkOrJoin()
	case r < 5 && (!s.inTxn || r < 3):
		if s.inTxn {
			g.emit(t, "end")
		} else {
			g.emit(t, "begin")
		}
		s.inTxn = !s.inTxn
	case r < 6:
		g.lock(t)
	case r < 7:
		m := g.rng.IntN(2)
		if g.rng.IntN(2) == 0 && !g.waited[m] {
			g.emit(t, fmt.Sprintf("post(M%d)", m))
		} else {
			g.waited[m] = true
			g.emit(t, fmt.Sprintf("wait(M%d)", m))
		}
	default:
		op := "w"
		if g.rng.IntN(5) < 2 {
			op = "r"
		}
		g.emit(t, fmt.Sprintf("%s(x%d)", op, g.rng.IntN(g.vars)))
	}
}

// forkOrJoin: T0 forks a thread not yet forked, or joins one done.
func (g *syncGen) forkOrJoin() {
	u := 1 + g.rng.IntN(len(g.ts)-1)
	switch v := &g.ts[u]; {
	case !v.forked:
		v.forked = true
		g.emit(0, fmt.Sprintf("fork(T%d)", u))
	case v.left == 0 && !v.joined && !v.inTxn && len(v.held) == 0:
		v.joined = true
		g.emit(0, fmt.Sprintf("join(T%d)", u))
	}
}

// lock releases t's last lock, or acquires a free one.
func (g *syncGen) lock(t int) {
	s := &g.ts[t]
	if len(s.held) > 0 {
		g.release(t)
	} else if l := g.rng.IntN(2); g.lockFree[l] {
		g.lockFree[l] = false
		s.held = append(s.held, l)
		g.emit(t, fmt.Sprintf("acq(L%d)", l))
	}
}

func (g *syncGen) release(t int) {
	s := &g.ts[t]
	l := s.held[len(s.held)-1]
	s.held = s.held[:len(s.held)-1]
	g.lockFree[l] = true
	g.emit(t, fmt.Sprintf("rel(L%d)", l))
}

// finish releases a thread's locks when its events are done, and mostly
// ends its open transaction.
func (g *syncGen) finish(t int) {
	s := &g.ts[t]
	for len(s.held) > 0 {
		g.release(t)
	}
	if s.inTxn && g.rng.IntN(3) > 0 {
		g.emit(t, "end")
		s.inTxn = false
	}
}

// TestLockEdgesAgainstBrute: with LockEdges, serial orders also keep the
// lock passings, fork, join and messages; against every such order, and
// the trace monitor's --lock-edges verdict is again never stricter.
// Without LockEdges the same traces are decided with program order alone.
func TestLockEdgesAgainstBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 29))
	counts := map[string]int{}
	for range testflag.N(1000, 15000) {
		text := genSyncTrace(rng, 2+rng.IntN(2), 1+rng.IntN(2), 6+rng.IntN(8))
		if strings.TrimSpace(text) == "" {
			continue
		}
		plain := parseRef(text, false)
		if len(plain.txns) > 8 {
			continue
		}
		agree(t, text, plain, check(t, text, Options{}))
		ref := parseRef(text, true)
		if len(ref.txns) > 9 {
			continue
		}
		ref.syncArcs(text)
		res := check(t, text, Options{LockEdges: true})
		agree(t, text, ref, res)
		counts[res.Verdict.String()]++
		if conflictSerializable(t, text, true) {
			require.Equal(t, Serializable, res.Verdict, "conflict-serializable under --lock-edges, yet %v on\n%s", res.Verdict, text)
		} else if res.Verdict == Serializable {
			counts["view only"]++
		}
	}
	t.Logf("%v", counts)
	for _, k := range []string{"serializable", "violation", "view only"} {
		require.Greater(t, counts[k], testflag.N(1000, 15000)/100, "too few %q: %v", k, counts)
	}
}
