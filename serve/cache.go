package serve

import (
	"crypto/sha256"
	"sync"
)

// answers remembers the last answers (reports, or explanations): the page
// asks for a violation's witness page right after its check, and a class
// checks the same examples over and over. A remembered answer is given
// without waiting for a slot. Only decided answers are kept: unknown
// depends on the time limit and the machine's load, a verdict on neither
// (the engines are deterministic), so the query's timeout is not in the key.
type answers[T any] struct {
	mu    sync.Mutex
	max   int
	byKey map[answerKey]T
	order []answerKey // oldest first, for eviction
}

type answerKey struct {
	src       [sha256.Size]byte
	name      string
	engine    string
	lockEdges bool
	ignore    bool // --ignore-sync
}

func newAnswers[T any](max int) *answers[T] {
	return &answers[T]{max: max, byKey: map[answerKey]T{}}
}

func keyOf(src []byte, q Query) answerKey {
	return answerKey{sha256.Sum256(src), q.Name, q.Engine, q.LockEdges, q.IgnoreSync}
}

func (a *answers[T]) get(k answerKey) (T, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	v, ok := a.byKey[k]
	return v, ok
}

// put keeps v if it is decided, evicting the oldest past max.
func (a *answers[T]) put(k answerKey, v T, decided bool) {
	if a.max <= 0 || !decided {
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
	a.byKey[k] = v
	a.order = append(a.order, k)
}
