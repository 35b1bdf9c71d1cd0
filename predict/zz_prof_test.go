package predict

import (
	"context"
	"os"
	"testing"

	"github.com/conc-dev/conc/trace"
)

func TestZZProf(t *testing.T) {
	f, err := os.Open("/tmp/allrun/big.std")
	if err != nil {
		t.Skip()
	}
	defer f.Close()
	r, _ := trace.NewReader(f, "big.std", trace.Options{})
	a, err := All(context.Background(), r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for k := range min(200, len(a.Groups)) {
		if _, err := a.Witness(k); err != nil {
			t.Fatal(err)
		}
	}
}
