package initgo

import "testing"

func TestReady(t *testing.T) {
	if Ready() != 1 {
		t.Fatal("not ready")
	}
}
