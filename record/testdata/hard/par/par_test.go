package par

import "testing"

var shared C

func TestPar(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			shared.Inc()
		})
	}
}
