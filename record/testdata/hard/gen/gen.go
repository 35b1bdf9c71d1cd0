package gen

import "sync"

type Box[T any] struct {
	mu sync.Mutex
	v  T
	n  int
}

//conc:atomic
func (b *Box[T]) Swap(v T) T {
	b.mu.Lock()
	old := b.v
	b.mu.Unlock()
	b.mu.Lock()
	b.v = v
	b.n++
	b.mu.Unlock()
	return old
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
