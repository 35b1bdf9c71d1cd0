package chain

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/internal/budget"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/profiles"
)

// The chain of Lemma 3 over straight-line threads. The program violates
// atomicity iff some thread i has ▷ a b ◁ and distinct threads j1..jm
// (m >= 1) other than i can be entered and left so that
//
//	a D e1(j1),  e2(jt) D e1(jt+1),  e2(jm) D b,  first_j(e1) <= last_j(e2).
//
// Entering thread j by a conflict with letter l is possible from
// transaction m_j(l) = min{first_j(e) : e D l} on, and after entering at
// transaction t thread j can be left by exactly the letters e2 with
// last_j(e2) >= t: an up-set in t. So a chain is summarised by its entry
// transaction t into its current thread j, the best (least) t dominates, and
// the step to thread k is the monotone function
//
//	g_jk(t) = min{m_k(e2) : last_j(e2) >= t}.
//
// The chain closes on b from (j, t) iff t <= M_j(b) = max{last_j(e) : e D b}.
// Threads must be distinct (Theorem 2 makes this NP-complete), so the search
// is over (set of threads used, current thread), keeping the least t per
// state; F_a[j] is the least t over every chain from a that ends in j.

const Inf = math.MaxInt32

// Chainer holds the summaries and the lazily built step functions. Its
// exported fields are the budgets the caller sets and the outcome it reads.
type Chainer struct {
	Ctx    context.Context // cancelled: the search stops (Stop says why)
	th     []*proj.ThreadSum
	k      int
	steps  map[[2]int]*stepFn
	fmemo  map[string][]int32
	dense  *denseBest    // the chain states of every search, up to denseThreads threads
	sorted [][]int32     // per thread: its letters by last use, built lazily (byLast)
	States int64         // the chain states counted so far, over every pass
	Limit  int64         // the state budget (--max-states); 0: none
	Mem    *budget.Meter // the memory budget (--max-memory); nil: none
	Stop   string        // why the search gave up, "" if it did not
	StopBy engines.Limit // the limit Stop names
	// Depth bounds the threads of a chain (0: no bound), and cut records
	// that the bound kept a chain from growing (deepen.go).
	Depth       int
	cut         bool
	letterUsers [][]userOf    // per letter, its users (chain_short.go)
	short       *shortScratch // reachShort's scratch
	// LockedRun: the normal run is planned for the trace with its locks,
	// and Doomed says Plan found it could not respect them
	// (chain_doom.go), so there is no plan.
	LockedRun, Doomed bool
}

// New is the chain search over the threads of s, with a budget of limit
// states (0: none).
func New(ctx context.Context, s *proj.Summary, limit int) *Chainer {
	return &Chainer{Ctx: ctx, th: s.Threads, k: len(s.Threads), steps: map[[2]int]*stepFn{},
		fmemo: map[string][]int32{}, Limit: int64(limit), sorted: make([][]int32, len(s.Threads))}
}

// StopNote names what ended ctx (Ended).
func StopNote(ctx context.Context) string {
	_, note := Ended(ctx)
	return note
}

// Ended is the limit that ended ctx, and the note that names it: the
// memory budget, whose watch (cmd/conc) cancels it with budget.Exceeded,
// or the deadline.
func Ended(ctx context.Context) (engines.Limit, string) {
	var ex *budget.Exceeded
	if errors.As(context.Cause(ctx), &ex) {
		return engines.MemoryBudget, ex.Error()
	}
	return engines.Deadline, "deadline reached (--timeout)"
}

// halt records that the limit l stopped the search, for the reason why.
func (c *Chainer) halt(l engines.Limit, why string) { c.StopBy, c.Stop = l, why }

// Resume forgets a stop, so that the search can go on under new limits.
func (c *Chainer) Resume() { c.StopBy, c.Stop = engines.NoLimit, "" }

// Conflicting lists the letters that conflict with l (at most two).
func Conflicting(l profiles.Letter) [2]profiles.Letter {
	if l.Write() {
		return [2]profiles.Letter{l - 1, l}
	}
	return [2]profiles.Letter{l + 1, -1}
}

// enter is m_j(l): the first transaction of thread j with a letter that
// conflicts with l, inf if none.
func (c *Chainer) enter(j int, l profiles.Letter) int32 {
	best := int32(Inf)
	for _, e := range Conflicting(l) {
		if e < 0 {
			continue
		}
		if f := c.th[j].FirstOf(e); f != 0 && f < best {
			best = f
		}
	}
	return best
}

// Close is M_j(b): the last transaction of thread j with a letter that
// conflicts with b, 0 if none.
func (c *Chainer) Close(j int, b profiles.Letter) int32 {
	best := int32(0)
	for _, e := range Conflicting(b) {
		if e >= 0 {
			best = max(best, c.th[j].LastOf(e))
		}
	}
	return best
}

// stepFn is g_jk as a step function: for entries sorted by last descending,
// min[i] is the least m_k over the letters with last >= last[i].
type stepFn struct {
	last, min []int32
}

func (g *stepFn) at(t int32) int32 {
	n := sort.Search(len(g.last), func(i int) bool { return g.last[i] < t })
	if n == 0 {
		return Inf
	}
	return g.min[n-1]
}

// step returns g_jk, building it on first use: O(letters of j) over j's
// letters in order of last use (sorted once per thread, byLast). An entry
// is kept only when it lowers the prefix minimum, and no m_k is below 1
// (transactions are numbered from 1), so the walk stops there: on 8
// threads over 10^4 variables it then reads a few hundred of j's letters
// instead of all of them.
func (c *Chainer) step(j, k int) *stepFn {
	if g, ok := c.steps[[2]int{j, k}]; ok {
		return g
	}
	g := &stepFn{}
	span := c.th[j].Span
	for _, l := range c.byLast(j) { // keep the entries that lower the prefix minimum
		m := c.enter(k, profiles.Letter(l))
		if n := len(g.min); m != Inf && (n == 0 || m < g.min[n-1]) {
			g.last, g.min = append(g.last, span[l].Last), append(g.min, m)
			if m <= 1 {
				break
			}
		}
	}
	c.steps[[2]int{j, k}] = g
	return g
}

// byLast is thread j's letters, latest last use first (ties in letter
// order). A comparison sort of 2·10^4 letters per thread with a function
// was a tenth of predict's time on a trace of 10^6 events: this is a
// counting sort on last when the thread has at most a few transactions per
// letter (its table, one counter per transaction, at most four per letter
// and 1,024 more), else a sort of packed keys.
func (c *Chainer) byLast(j int) []int32 {
	if c.sorted[j] != nil {
		return c.sorted[j]
	}
	span := c.th[j].Span
	top := int32(0)
	for _, sp := range span {
		top = max(top, sp.Last)
	}
	if int(top) <= 4*len(span)+1024 {
		c.sorted[j] = countingByLast(span, top)
	} else {
		c.sorted[j] = packedByLast(span)
	}
	return c.sorted[j]
}

// countingByLast sorts the used letters of span by last, latest first,
// with a table of top+1 counters.
func countingByLast(span []proj.LetterSpan, top int32) []int32 {
	at := make([]int32, top+1) // at[top-t]: counts, then slots, of last use t
	n := int32(0)
	for _, sp := range span {
		if sp.Last != 0 {
			at[top-sp.Last]++
			n++
		}
	}
	sum := int32(0)
	for x, k := range at {
		at[x], sum = sum, sum+k
	}
	ls := make([]int32, n)
	for l, sp := range span {
		if sp.Last != 0 {
			ls[at[top-sp.Last]] = int32(l)
			at[top-sp.Last]++
		}
	}
	return ls
}

// packedByLast is countingByLast's order by sorting keys that hold the
// complement of last above the letter.
func packedByLast(span []proj.LetterSpan) []int32 {
	keys := []uint64{}
	for l, sp := range span {
		if sp.Last != 0 {
			keys = append(keys, uint64(^uint32(sp.Last))<<32|uint64(l))
		}
	}
	slices.Sort(keys)
	ls := make([]int32, len(keys))
	for x, k := range keys {
		ls[x] = int32(uint32(k))
	}
	return ls
}

// Threads is the number of threads the chains run over.
func (c *Chainer) Threads() int { return c.k }
