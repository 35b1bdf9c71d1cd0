package serve

import (
	"crypto/sha256"
	"sync"

	"github.com/conc-dev/conc/report"
)

// answers remembers the last reports: the page asks for a violation's
// witness page right after its check, and a class checks the same
// examples over and over. Only decided answers are kept: unknown depends
// on the time limit and the machine's load, a verdict on neither (the
// engines are deterministic), so the query's timeout is not in the key.
type answers struct {
	mu    sync.Mutex
	max   int
	byKey map[answerKey]*report.Report
	order []answerKey // oldest first, for eviction
}

type answerKey struct {
	src       [sha256.Size]byte
	name      string
	engine    string
	lockEdges bool
	ignore    bool // --ignore-sync
}

func newAnswers(max int) *answers {
	return &answers{max: max, byKey: map[answerKey]*report.Report{}}
}

func keyOf(src []byte, q Query) answerKey {
	return answerKey{sha256.Sum256(src), q.Name, q.Engine, q.LockEdges, q.IgnoreSync}
}

func (a *answers) get(k answerKey) *report.Report {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.byKey[k]
}

// put keeps r if it is decided, evicting the oldest past max.
func (a *answers) put(k answerKey, r *report.Report) {
	if a.max <= 0 || r.Verdict == "unknown" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.byKey[k]; ok {
		return
	}
	if len(a.order) >= a.max {
		delete(a.byKey, a.order[0])
		a.order = a.order[1:]
	}
	a.byKey[k] = r
	a.order = append(a.order, k)
}
