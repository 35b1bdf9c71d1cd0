package tmain

import "testing"

func TestMain(m *testing.M) {
	Ready = true
	m.Run()
}

func TestReady(t *testing.T) {
	if !Ready {
		t.Fatal("not ready")
	}
}
