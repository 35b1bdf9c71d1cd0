package outfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Distinct checks that no two outputs, each its flag and path, name one
// file (spelled alike or not, existing or not), and that at most one is
// standard output.
func Distinct(outs [][2]string) error {
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if err := distinctPair(a, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// distinctPair checks two outputs, each its flag and path.
func distinctPair(a, b [2]string) error {
	switch {
	case a[1] == Stdout && b[1] == Stdout:
		return fmt.Errorf("%s - and %s -: only one output can go to standard output", a[0], b[0])
	case a[1] == Stdout || b[1] == Stdout:
		return nil
	case absPath(a[1]) == absPath(b[1]): // "out" and "./out", before either exists
		return fmt.Errorf("%s and %s name the same file", a[0], b[0])
	}
	x, xerr := os.Stat(a[1])
	y, yerr := os.Stat(b[1])
	if xerr == nil && yerr == nil && os.SameFile(x, y) {
		return fmt.Errorf("%s and %s name the same file", a[0], b[0])
	}
	return nil
}

// absPath is path made absolute and clean (just clean if the working
// directory is unknown).
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
