package all

import (
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/internal/chain"
	"github.com/conc-dev/conc/predict/internal/nested"
	"github.com/conc-dev/conc/predict/internal/pair"
	"github.com/conc-dev/conc/predict/internal/sites"
	"github.com/conc-dev/conc/trace"
)

// The groups as the finders (finders.go) find their patterns: a hit is
// only counted in its group; the first hit of each finder in a group is
// kept, so that its witness can be built later (a few words a group,
// never one a pattern).

// The finders, in the order a group's witness is tried.
const (
	srcAnswer = iota // predict's own answer (with locks, fork or join)
	srcScan          // the lock-free scan's normal run
	srcLock          // two threads through their locks
	srcHB            // two threads, happens-before
	srcNested        // two threads and one variable (step 5c)
	nSources
)

// sourceNames name the finders in the JSON and the text.
var sourceNames = [nSources]string{"predict's answer", "normal run", "two threads through their locks", "two-thread reordering",
	"two threads and one variable"}

// pattern is a finder's first pattern in a group.
type pattern struct {
	scan   chain.Interrupted
	lock   pair.LockFind
	hb     pair.HBFind
	nested nested.Find
	answer *predict.Outcome
}

// tally is one group while the finders run.
type tally struct {
	sites  [2]sites.Site // e1 and e2 of its first pattern
	thread int           // the interrupted transaction's thread (first pattern)
	first  int64         // the least line of an e1
	counts [nSources]int64
	has    [nSources]bool
	pats   [nSources]pattern
}

// collector deduplicates the patterns by signature.
type collector struct {
	index  map[sites.Key]int
	groups []*tally
	// misses counts patterns whose e1 the site tracker did not hold (none
	// ever should: the tests check it).
	misses int
	// cut says why a finder that lists every group of its kind stopped
	// short of it (its own limits; "": it did not).
	cut string
}

func newCollector() *collector { return &collector{index: map[sites.Key]int{}} }

// add counts a pattern of finder src (thread t's e1 at line1, and e2) and
// returns its group and whether it is the finder's first there (then the
// caller keeps the pattern).
func (c *collector) add(src, t int, e1, e2 sites.Site, line1 int64) (*tally, bool) {
	k := sites.KeyOf(e1, e2)
	n, ok := c.index[k]
	if !ok {
		n = len(c.groups)
		c.index[k] = n
		c.groups = append(c.groups, &tally{sites: [2]sites.Site{e1, e2}, thread: t, first: line1})
	}
	g := c.groups[n]
	g.counts[src]++
	if line1 < g.first {
		g.first, g.thread = line1, t
	}
	first := !g.has[src]
	g.has[src] = true
	return g, first
}

// addAt is add for a pattern whose e1 is thread t's edge e1, which the
// site tracker holds, and whose e2 is ev; a pattern whose e1 it does not
// hold is counted in misses and added nowhere.
func (c *collector) addAt(tr *sites.Tracker, src, t int, e1 int64, ev *trace.Event) (*tally, bool) {
	a, ok := tr.Lookup(t, e1)
	if !ok {
		c.misses++
		return nil, false
	}
	return c.add(src, t, a.Site, sites.Of(ev), a.Line)
}
