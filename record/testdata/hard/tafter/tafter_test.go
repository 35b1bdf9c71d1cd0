package tafter

import "testing"

func TestWait(t *testing.T) {
	Wait()
	if N != 1 {
		t.Fatal(N)
	}
}
