// Package stock guards a stock with a channel used as a lock: a
// token handed from goroutine to goroutine through a buffered channel.
package stock

// Stock is a count guarded by a token: whoever took it from tok may
// touch n, and hands it back by sending it.
type Stock struct {
	tok chan struct{}
	n   int
}

// New makes a stock of n.
func New(n int) *Stock {
	s := &Stock{tok: make(chan struct{}, 1), n: n}
	s.tok <- struct{}{}
	return s
}

// Take removes one item if there is one. Not atomic: the token is taken
// for the check, handed back, and taken again for the removal, so two
// Takes can both see the last item.
//
//conc:atomic
func (s *Stock) Take() bool {
	<-s.tok
	ok := s.n > 0
	s.tok <- struct{}{}
	if !ok {
		return false
	}
	<-s.tok
	s.n--
	s.tok <- struct{}{}
	return true
}

// TakeAtomic is Take's twin: check and removal under one hold of the
// token.
//
//conc:atomic
func (s *Stock) TakeAtomic() bool {
	<-s.tok
	ok := s.n > 0
	if ok {
		s.n--
	}
	s.tok <- struct{}{}
	return ok
}

// Count reads the stock.
func (s *Stock) Count() int {
	<-s.tok
	n := s.n
	s.tok <- struct{}{}
	return n
}
