package busy

import (
	"os"
	"strconv"
	"testing"
)

// TestBusy runs BUSY_N keys (default 20000) through 4 workers.
func TestBusy(t *testing.T) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("BUSY_N")); err == nil {
		n = v
	}
	s := NewStore()
	Run(s, 4, n)
	if got := s.Total(); got != n {
		t.Fatalf("total %d, want %d", got, n)
	}
}
