package testflag

import "testing"

func TestN(t *testing.T) {
	for _, c := range []struct {
		env  string
		want int
	}{{"", 10}, {"0", 10}, {"1", 100}, {"yes", 100}} {
		t.Setenv(Env, c.env)
		if got := N(10, 100); got != c.want {
			t.Errorf("%s=%q: N(10, 100) = %d, want %d", Env, c.env, got, c.want)
		}
	}
}
