package outfile

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// The temporary files not yet committed or discarded, so that a signal
// (Ctrl-C, SIGTERM) that ends the process before Commit or Discard can run
// removes them: an interrupted run leaves no ".NAME.tmpNNN" behind.
var pending = &registry{files: map[*os.File]bool{}}

// ErrInterrupted is the error of Create after RemovePending.
var ErrInterrupted = errors.New("interrupted")

// registry tracks temporary files. Its lock is held while one is created,
// renamed into place or removed, so RemovePending never races a Commit:
// each file is either in place under its final name or gone.
type registry struct {
	mu     sync.Mutex
	files  map[*os.File]bool
	closed bool // RemovePending ran: no new temporary file
}

// open creates the temporary file name and registers it.
func (r *registry) open(name string, perm fs.FileMode) (*os.File, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrInterrupted
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err == nil {
		r.files[f] = true
	}
	return f, err
}

// finish runs done (the rename or the removal of f) and forgets f; after
// RemovePending, f is already gone and done does not run.
func (r *registry) finish(f *os.File, done func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.files[f] {
		return ErrInterrupted
	}
	delete(r.files, f)
	return done()
}

// RemovePending removes every temporary file not yet committed or
// discarded, and makes later Creates of a regular file fail: the process
// is about to end on a signal (cmd/conc calls it). The final names keep
// what they held before.
func RemovePending() {
	pending.mu.Lock()
	defer pending.mu.Unlock()
	for f := range pending.files {
		f.Close()
		os.Remove(f.Name())
		delete(pending.files, f)
	}
	pending.closed = true
}

// Reopen undoes RemovePending's refusal, for a process that goes on after
// it (tests of the signal handling).
func Reopen() {
	pending.mu.Lock()
	defer pending.mu.Unlock()
	pending.closed = false
}
