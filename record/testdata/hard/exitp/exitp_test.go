package exitp

import (
	"os"
	"testing"
)

func TestExit(t *testing.T) {
	X = 1
	os.Exit(3)
}
