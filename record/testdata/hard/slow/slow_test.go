package slow

import (
	"testing"
	"time"
)

func TestSlow(t *testing.T) {
	X = 1
	time.Sleep(time.Minute)
}
