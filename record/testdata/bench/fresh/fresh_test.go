package fresh

import (
	"os"
	"strconv"
	"testing"
)

// TestFill fills FRESH_N nodes (default 200000).
func TestFill(t *testing.T) {
	n := 200000
	if v, err := strconv.Atoi(os.Getenv("FRESH_N")); err == nil {
		n = v
	}
	if ns := Fill(n); len(ns) != n {
		t.Fatalf("%d nodes, want %d", len(ns), n)
	}
}
