package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Several reports whether the command's arguments ask for a corpus run:
// more than one, or a directory. (A --summary-out makes one too: the
// command's business.)
func Several(args []string) bool {
	if len(args) != 1 {
		return len(args) > 1
	}
	st, err := os.Stat(args[0])
	return args[0] != "-" && err == nil && st.IsDir()
}

// IsTrace reports whether a file found in a directory is taken as a
// trace: a name ending in .std or .std.gz.
func IsTrace(name string) bool {
	return strings.HasSuffix(name, ".std") || strings.HasSuffix(name, ".std.gz")
}

// Inputs are the traces args name, in order: a file as it is (whatever
// its name), a directory's traces (IsTrace) below it, recursively, in
// lexical order; a trace named twice is taken once. Standard input ("-")
// cannot be one of several traces, and a directory without traces is an
// error, as is a name that cannot be read ("cannot read NAME: why").
func Inputs(args []string) ([]string, error) {
	if len(args) == 0 {
		return nil, errors.New("want TRACE arguments: files or directories of traces")
	}
	var paths []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	for _, arg := range args {
		if arg == "-" {
			return nil, errors.New("standard input (-) cannot be one of several traces: give files or directories")
		}
		st, err := os.Stat(arg)
		if err != nil {
			return nil, cannotRead(err)
		}
		if !st.IsDir() {
			add(filepath.Clean(arg))
			continue
		}
		found := 0
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return cannotRead(err)
			}
			if !d.IsDir() && IsTrace(d.Name()) {
				found++
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if found == 0 {
			return nil, fmt.Errorf("%s: no trace in it (files ending .std or .std.gz)", arg)
		}
	}
	return paths, nil
}

// cannotRead words an error of opening a file as the commands do:
// "cannot read NAME: why".
func cannotRead(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot read %s: %v", pe.Path, pe.Err)
	}
	return err
}
