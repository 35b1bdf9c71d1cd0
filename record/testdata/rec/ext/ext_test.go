package ext_test

import (
	"testing"

	"example.com/rec/ext"
)

func TestAdd(t *testing.T) {
	ext.Add(2)
	if ext.Total != 2 {
		t.Fatal(ext.Total)
	}
}
