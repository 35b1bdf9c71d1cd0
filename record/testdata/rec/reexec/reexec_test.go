package reexec

import (
	"os"
	"os/exec"
	"testing"
)

func TestFirst(t *testing.T) {
	N = 1
}

func TestChild(t *testing.T) {
	N = 2
	if os.Getenv("REEXEC_CHILD") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$")
	cmd.Env = append(os.Environ(), "REEXEC_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
