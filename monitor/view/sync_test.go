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
	var b strings.Builder
	type th struct {
		forked, joined, inTxn bool
		left                  int
		held                  []int
	}
	ts := make([]th, threads)
	ts[0] = th{forked: true, left: n}
	for i := 1; i < threads; i++ {
		ts[i].left = 2 + rng.IntN(n/threads+2)
	}
	lockFree := []bool{true, true}
	waited := map[int]bool{}
	emit := func(t int, op string) { fmt.Fprintf(&b, "T%d|%s\n", t, op) }
	for range 3 * n {
		t := rng.IntN(threads)
		s := &ts[t]
		if !s.forked || s.joined || s.left == 0 {
			continue
		}
		s.left--
		switch r := rng.IntN(20); {
		case t == 0 && r < 2:
			u := 1 + rng.IntN(threads-1)
			if !ts[u].forked {
				ts[u].forked = true
				emit(0, fmt.Sprintf("fork(T%d)", u))
			} else if ts[u].left == 0 && !ts[u].joined && !ts[u].inTxn && len(ts[u].held) == 0 {
				ts[u].joined = true
				emit(0, fmt.Sprintf("join(T%d)", u))
			}
		case r < 5 && (!s.inTxn || r < 3):
			if s.inTxn {
				emit(t, "end")
			} else {
				emit(t, "begin")
			}
			s.inTxn = !s.inTxn
		case r < 6:
			if len(s.held) > 0 {
				l := s.held[len(s.held)-1]
				s.held = s.held[:len(s.held)-1]
				lockFree[l] = true
				emit(t, fmt.Sprintf("rel(L%d)", l))
			} else if l := rng.IntN(2); lockFree[l] {
				lockFree[l] = false
				s.held = append(s.held, l)
				emit(t, fmt.Sprintf("acq(L%d)", l))
			}
		case r < 7:
			m := rng.IntN(2)
			if rng.IntN(2) == 0 && !waited[m] {
				emit(t, fmt.Sprintf("post(M%d)", m))
			} else {
				waited[m] = true
				emit(t, fmt.Sprintf("wait(M%d)", m))
			}
		default:
			op := "w"
			if rng.IntN(5) < 2 {
				op = "r"
			}
			emit(t, fmt.Sprintf("%s(x%d)", op, rng.IntN(vars)))
		}
		if s.left == 0 {
			for len(s.held) > 0 {
				l := s.held[len(s.held)-1]
				s.held = s.held[:len(s.held)-1]
				lockFree[l] = true
				emit(t, fmt.Sprintf("rel(L%d)", l))
			}
			if s.inTxn && rng.IntN(3) > 0 {
				emit(t, "end")
				s.inTxn = false
			}
		}
	}
	return b.String()
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
