package old

import "testing"

func TestInc(t *testing.T) {
	Inc()
	if n != 1 {
		t.Fatalf("n = %d", n)
	}
}
