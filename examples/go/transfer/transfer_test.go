package transfer

import (
	"sync"
	"testing"
)

// run makes two concurrent transfers that empty one account.
func run(t *testing.T, transfer func(a, b *Account, n int) bool) {
	a, b := NewAccount(1, 20), NewAccount(2, 0)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			transfer(a, b, 10)
		}()
	}
	wg.Wait()
	if a.Balance() != 0 || b.Balance() != 20 {
		t.Fatalf("balances %d and %d", a.Balance(), b.Balance())
	}
}

func TestTransfer(t *testing.T)       { run(t, Transfer) }
func TestTransferAtomic(t *testing.T) { run(t, TransferAtomic) }
