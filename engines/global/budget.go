package global

import "github.com/conc-dev/conc/model"

// Bytes per automaton state of the tables newSearcher builds before
// the search (edges.go, future.go), for the memory budget's
// estimate: a program of millions of states (bank.conc with repeat 1000000)
// would otherwise crash while building them, before any state is searched.
const (
	edgeRowBytes   = 24 // a state's []*edgeFacts header
	edgePtrBytes   = 8  // one pointer an edge
	runBytes       = 8  // silentRun
	deadBytes      = 1  // dead row
	postOrderBytes = 1 + 4 + 16
	lineFutBytes   = 4 + 4 // lineFut: the position, and an occurrence
	futWordsBytes  = 8     // denseFut: one word of letters, per table
	futRowBytes    = 32    // denseFut: a row's bitset.BitSet header, per table
)

// tableBytes estimates what the tables of s's program take: per thread,
// each state's edge facts, silent run and dead row; per distinct automaton
// its future table; and the transient post orders that build them.
func (s *searcher) tableBytes() int64 {
	var need int64
	seen := map[*model.Automaton]bool{}
	for _, th := range s.p.Threads {
		a := th.Auto
		n, e := int64(a.NumStates()), int64(a.NumEdges())
		need += n*(edgeRowBytes+runBytes+deadBytes) + e*edgePtrBytes
		if seen[a] {
			continue
		}
		seen[a] = true
		need += n * postOrderBytes
		if model.ClassOf(a) == model.StraightLine {
			need += n * lineFutBytes
		} else {
			need += n * (futRowBytes + futWordsBytes*int64(s.fa.words)) * int64(1+len(s.fa.refined))
		}
	}
	return need
}

// threadStates is the number of automaton states over p's threads (a
// shared automaton counted once per thread, as its tables are).
func threadStates(p *model.Program) int64 {
	var n int64
	for _, th := range p.Threads {
		n += int64(th.Auto.NumStates())
	}
	return n
}
