package sel

import "testing"

func TestSelect(t *testing.T) {
	ch := make(chan int)
	select {
	case <-ch:
	default:
	}
	go func() { ch <- 1 }()
	<-ch
	N = 1
}
