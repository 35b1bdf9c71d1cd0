// Package transfer moves money between accounts.
package transfer

import "sync"

// Account is a balance under a lock.
type Account struct {
	id      int // accounts are locked in the order of their ids
	mu      sync.Mutex
	balance int
}

// NewAccount opens account id with balance n.
func NewAccount(id, n int) *Account { return &Account{id: id, balance: n} }

// Balance reads the balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Transfer moves n from a to b if a can pay. Not atomic: the check and
// the debit are two critical sections, so two transfers can both pass
// the check and overdraw a.
//
//conc:atomic
func Transfer(a, b *Account, n int) bool {
	a.mu.Lock()
	ok := a.balance >= n
	a.mu.Unlock()
	if !ok {
		return false
	}
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
	b.mu.Lock()
	b.balance += n
	b.mu.Unlock()
	return true
}

// TransferAtomic is Transfer's twin: both accounts locked (in the order
// of their ids, so that two transfers cannot deadlock) for the check, the
// debit and the credit.
//
//conc:atomic
func TransferAtomic(a, b *Account, n int) bool {
	first, second := a, b
	if b.id < a.id {
		first, second = b, a
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if a.balance < n {
		return false
	}
	a.balance -= n
	b.balance += n
	return true
}
