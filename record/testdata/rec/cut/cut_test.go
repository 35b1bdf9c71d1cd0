package cut

import "testing"

func TestPanics(t *testing.T) {
	N = 1
	panic("the test binary dies")
}
