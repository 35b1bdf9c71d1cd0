package once

import "testing"

func TestOnce(t *testing.T) {
	if Config() != 42 || Config() != 42 {
		t.Fatal("config")
	}
}
