package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Stdout is the path that names standard output.
const Stdout = "-"

// ErrIsInput is the error of Create for an output that is one of the inputs.
var ErrIsInput = errors.New("is an input of this run; refusing to overwrite it")

// File is an output being written. Commit makes it visible under its name;
// Discard (or a failed Commit) removes what was written.
type File struct {
	w      io.Writer
	tmp    *os.File // the temporary file renamed to target; nil otherwise
	direct *os.File // a device or pipe written in place; nil otherwise
	target string   // the final name, symbolic links resolved
}

// Create opens path for writing: "-" is stdout, an existing device or pipe
// (/dev/null) is written in place, anything else goes to a temporary file in
// path's directory. It fails, before anything is written, when path is the
// same file as one of inputs (also through symbolic or hard links) or its
// directory cannot take a new file.
func Create(path string, stdout io.Writer, inputs ...os.FileInfo) (*File, error) {
	if path == Stdout {
		return &File{w: stdout}, nil
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createTemp(path, path, 0o666)
	case err != nil:
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	if !st.Mode().IsRegular() { // nothing to destroy: /dev/null may be both
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &File{w: f, direct: f}, nil
	}
	for _, in := range inputs {
		if in != nil && os.SameFile(st, in) {
			return nil, fmt.Errorf("%s %w", path, ErrIsInput)
		}
	}
	// Renaming needs only the directory's permission: a file the user may
	// not write stays refused, as os.Create would refuse it.
	probe, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	probe.Close()
	// A symbolic link keeps pointing where it did: the file it names is
	// replaced, not the link.
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	return createTemp(path, target, st.Mode().Perm())
}

// createTemp opens a new file beside target with perm (less the umask).
// Errors name path, the name the user gave, not the temporary one.
func createTemp(path, target string, perm fs.FileMode) (*File, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(rand.Uint64()%1e9, 10))
		f, err := pending.open(name, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("cannot create %s: %v", path, pe.Err)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot create %s: %w", path, err)
		}
		return &File{w: f, tmp: f, target: target}, nil
	}
	return nil, fmt.Errorf("cannot create %s: no free temporary name in %s", path, dir)
}

// Write writes to the output.
func (f *File) Write(p []byte) (int, error) { return f.w.Write(p) }

// Commit finishes the output: a temporary file is closed and renamed over
// its final name. On an error nothing is left behind. Commit and Discard
// after the first of them do nothing.
func (f *File) Commit() error {
	switch {
	case f.direct != nil:
		err := f.direct.Close()
		f.direct = nil
		return err
	case f.tmp == nil:
		return nil
	}
	tmp := f.tmp
	f.tmp = nil
	return pending.finish(tmp, func() error {
		err := tmp.Close()
		if err == nil {
			err = os.Rename(tmp.Name(), f.target)
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
		return err
	})
}

// Discard abandons the output: a temporary file is removed, so the final
// name keeps whatever it held before.
func (f *File) Discard() {
	if f.direct != nil {
		f.direct.Close()
		f.direct = nil
	}
	if f.tmp != nil {
		tmp := f.tmp
		f.tmp = nil
		pending.finish(tmp, func() error {
			tmp.Close()
			return os.Remove(tmp.Name())
		})
	}
}
