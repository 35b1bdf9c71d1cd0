package view

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// This file is the reference: view-serializability by the definition,
// every serial order tried, over a trace parsed on its own (no code of
// the package), and the replay that checks a witness order.

// bEvent is an event of the reference's parse.
type bEvent struct {
	thread string
	op     string // r, w (others are kept only for their arcs)
	target string
	line   int64
}

// bTxn is a transaction of the reference: its thread, begin line and its
// accesses in order.
type bTxn struct {
	thread string
	begin  int64
	events []bEvent
}

// bTrace is a trace as the reference sees it.
type bTrace struct {
	txns []bTxn
	// arcs are extra precedences between transactions (lock edges), by
	// index; program order is implicit.
	arcs [][2]int
	// lines are the (line, transaction) of each event in a transaction.
	lines [][2]int64
}

// txnOfLine maps an event's line to its transaction.
func (t bTrace) txnOfLine() map[int64]int {
	m := map[int64]int{}
	for _, l := range t.lines {
		m[l[0]] = int(l[1])
	}
	return m
}

// parseRef reads an STD text (no nesting): a begin opens a transaction
// of its thread, an access outside one is a unary transaction, and so is
// a sync event (acq, rel, fork, join, post, wait, give, take) when
// syncUnary (--lock-edges); sync events have no part in the views.
func parseRef(text string, syncUnary bool) bTrace {
	var t bTrace
	open := map[string]int{}
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		parts := strings.Split(line, "|")
		th, op := parts[0], parts[1]
		ln := int64(i + 1)
		switch {
		case op == "begin":
			open[th] = len(t.txns)
			t.txns = append(t.txns, bTxn{thread: th, begin: ln})
		case op == "end":
			delete(open, th)
		default:
			access := op[0] == 'r' && op[1] == '(' || op[0] == 'w' && op[1] == '('
			if !access && !syncUnary {
				continue
			}
			k, ok := open[th]
			if !ok {
				k = len(t.txns)
				t.txns = append(t.txns, bTxn{thread: th, begin: ln})
			}
			t.lines = append(t.lines, [2]int64{ln, int64(k)})
			if access {
				t.txns[k].events = append(t.txns[k].events, bEvent{thread: th, op: op[:1], target: op[2 : len(op)-1], line: ln})
			}
		}
	}
	return t
}

// views are what a run shows: each read's source line (0: initial) by
// read line, and each variable's final write line.
type views struct {
	src   map[int64]int64
	final map[string]int64
}

// viewsOf replays the transactions' events in the given order of
// transactions (nil: the trace's own order of lines).
func (t bTrace) viewsOf(order []int) views {
	var evs []bEvent
	if order == nil {
		for _, tx := range t.txns {
			evs = append(evs, tx.events...)
		}
		sortByLine(evs)
	} else {
		for _, k := range order {
			evs = append(evs, t.txns[k].events...)
		}
	}
	v := views{src: map[int64]int64{}, final: map[string]int64{}}
	for _, e := range evs {
		if e.op == "r" {
			v.src[e.line] = v.final[e.target]
		} else {
			v.final[e.target] = e.line
		}
	}
	return v
}

func sortByLine(evs []bEvent) {
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0 && evs[j].line < evs[j-1].line; j-- {
			evs[j], evs[j-1] = evs[j-1], evs[j]
		}
	}
}

func (v views) equal(w views) bool {
	if len(v.src) != len(w.src) || len(v.final) != len(w.final) {
		return false
	}
	for k, x := range v.src {
		if w.src[k] != x {
			return false
		}
	}
	for k, x := range v.final {
		if w.final[k] != x {
			return false
		}
	}
	return true
}

// respects tells whether order keeps program order and t's arcs.
func (t bTrace) respects(order []int) error {
	pos := map[int]int{}
	for i, k := range order {
		if _, dup := pos[k]; dup {
			return fmt.Errorf("transaction %d twice", k)
		}
		pos[k] = i
	}
	if len(pos) != len(t.txns) {
		return fmt.Errorf("%d transactions in the order, %d in the trace", len(pos), len(t.txns))
	}
	last := map[string]int{}
	for k, tx := range t.txns {
		if p, ok := last[tx.thread]; ok && pos[p] > pos[k] {
			return fmt.Errorf("program order of %s broken", tx.thread)
		}
		last[tx.thread] = k
	}
	for _, a := range t.arcs {
		if pos[a[0]] > pos[a[1]] {
			return fmt.Errorf("arc %d -> %d broken", a[0], a[1])
		}
	}
	return nil
}

// bruteVSR tries every order of the transactions that keeps program
// order and the arcs, and tells whether one is view-equivalent.
func (t bTrace) bruteVSR() bool {
	want := t.viewsOf(nil)
	n := len(t.txns)
	order := make([]int, 0, n)
	used := make([]bool, n)
	var try func() bool
	try = func() bool {
		if len(order) == n {
			return t.viewsOf(order).equal(want)
		}
		for k := range n {
			if used[k] || !t.ready(k, used) {
				continue
			}
			order = append(order, k)
			used[k] = true
			if try() {
				return true
			}
			order = order[:len(order)-1]
			used[k] = false
		}
		return false
	}
	return try()
}

// ready tells whether transaction k may come next: every earlier
// transaction of its thread, and every arc's tail into it, is placed.
func (t bTrace) ready(k int, used []bool) bool {
	for j := range k {
		if t.txns[j].thread == t.txns[k].thread && !used[j] {
			return false
		}
	}
	for _, a := range t.arcs {
		if a[1] == k && !used[a[0]] {
			return false
		}
	}
	return true
}

// genTrace draws a random STD text: threads, variables, about n events,
// writes as often as reads (blind writes frequent), transactions of a few
// accesses and unary accesses, some left open at the end, and at most
// maxTxns transactions.
func genTrace(rng *rand.Rand, threads, vars, n, maxTxns int) string {
	var b strings.Builder
	inTxn := make([]bool, threads)
	txns := 0
	for range n {
		t := rng.IntN(threads)
		th := fmt.Sprintf("T%d", t)
		switch r := rng.IntN(10); {
		case inTxn[t] && r < 1:
			fmt.Fprintf(&b, "%s|end\n", th)
			inTxn[t] = false
		case !inTxn[t] && r < 3 && txns < maxTxns:
			fmt.Fprintf(&b, "%s|begin\n", th)
			inTxn[t] = true
			txns++
		case inTxn[t] || txns < maxTxns:
			if !inTxn[t] {
				txns++
			}
			op := "w"
			if rng.IntN(5) < 2 {
				op = "r"
			}
			fmt.Fprintf(&b, "%s|%s(x%d)\n", th, op, rng.IntN(vars))
		}
	}
	for t := range threads {
		if inTxn[t] && rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "T%d|end\n", t)
		}
	}
	return b.String()
}

// genShaped draws a random STD text whose transactions read some
// variables and then write some, each at most once, so that no
// transaction shows an obstacle of its own and the polygraph decides:
// threads, vars, at most txns transactions, some unary, interleaved at
// random.
func genShaped(rng *rand.Rand, threads, vars, txns int) string {
	scripts := make([][]string, threads)
	for range txns {
		t := rng.IntN(threads)
		var body []string
		for x := range vars {
			if rng.IntN(3) == 0 {
				body = append(body, fmt.Sprintf("r(x%d)", x))
			}
		}
		for x := range vars {
			if rng.IntN(2) == 0 {
				body = append(body, fmt.Sprintf("w(x%d)", x))
			}
		}
		switch {
		case len(body) == 0:
			continue
		case len(body) == 1 && rng.IntN(2) == 0:
			scripts[t] = append(scripts[t], body[0])
		default:
			scripts[t] = append(scripts[t], "begin")
			scripts[t] = append(scripts[t], body...)
			scripts[t] = append(scripts[t], "end")
		}
	}
	var b strings.Builder
	for {
		var live []int
		for t, s := range scripts {
			if len(s) > 0 {
				live = append(live, t)
			}
		}
		if len(live) == 0 {
			return b.String()
		}
		t := live[rng.IntN(len(live))]
		fmt.Fprintf(&b, "T%d|%s\n", t, scripts[t][0])
		scripts[t] = scripts[t][1:]
	}
}
