package record

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
)

// update rewrites the want.std files from what is recorded (go test
// ./record -run TestRecord -update; CONC_LONG=1 for every case): read
// the diff before committing it.
var update = flag.Bool("update", false, "rewrite testdata's want.std from the recorded traces")

// recordRec records packages of the module testdata/MOD (one go test
// build each) and returns each trace's text by package directory.
func recordRec(t *testing.T, mod string, o Options) map[string]string {
	t.Helper()
	var out bytes.Buffer
	o.Dir, o.Out, o.Stdout, o.Stderr = filepath.Join("testdata", mod), t.TempDir(), &out, &out
	results, _, err := Run(o)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	traces := map[string]string{}
	for _, r := range results {
		if r.Trace == "" {
			t.Fatalf("%s: no trace\n%s", r.Target.Path, out.String())
		}
		traces[filepath.Base(r.Target.Path)] = gunzip(t, r.Trace)
	}
	return traces
}

func gunzip(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(b)
}

// want compares a recorded trace with the package's want.std (made
// plain for --rapid).
func want(t *testing.T, mod, pkg, got string, rapid bool) {
	t.Helper()
	w, err := os.ReadFile(filepath.Join("testdata", mod, pkg, "want.std"))
	if err != nil {
		t.Fatal(err)
	}
	exp := string(w)
	if *update && !rapid {
		if err := os.WriteFile(filepath.Join("testdata", mod, pkg, "want.std"), []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		exp = got
	}
	if rapid {
		exp = plainSTD(exp)
	}
	if got != exp {
		t.Errorf("%s (rapid %v): trace differs from want.std\ngot:\n%s\nwant:\n%s", pkg, rapid, got, exp)
	}
}

// sums hashes every file under dir: recording must leave them as they
// were.
func sums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	m := map[string][32]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			m[p] = sha256.Sum256(b)
		}
		return err
	})
	return m
}

// The recorded test binaries, each compared with its package's
// want.std: accesses of each kind, a mutex, a read-write lock, a
// transaction by //conc:atomic and one by --atomic, fork, a WaitGroup and
// tests in order (basic); channels unbuffered, buffered, closed and
// ranged over (chans); sync.Once (once); a test binary that dies, whose
// trace ends with the cut line (cut); --rapid (basic without post and
// wait, read locks as acq and rel); a package tested only from outside
// (ext); a module whose go version (1.16) predates generics, a file
// with a //go:build line (old); a TestMain that returns (tmain); a test
// that runs its own binary again, which must not write over the trace,
// and an element of another package's variable (reexec); a channel used
// in a select, whose other operations write no messages (sel); a
// sync.Cond signalled with a waiter under its Mutex, and broadcast to a
// waiter under an RWMutex's read lock (cond).
var recordCases = []struct {
	mod, pkg string
	rapid    bool
}{{"rec", "basic", false}, {"rec", "chans", false}, {"rec", "once", false}, {"rec", "cut", false},
	{"rec", "ext", false}, {"rec", "basic", true}, {"old", "old", false}, {"rec", "tmain", false},
	{"rec", "reexec", false}, {"rec", "sel", false}, {"rec", "cond", false}}

// TestRecord records through the real go test, one build per case (the
// quick suite the first two), and checks that the user's files are
// untouched.
func TestRecord(t *testing.T) {
	before := sums(t, filepath.Join("testdata", "rec"))
	for _, c := range recordCases[:testflag.N(2, len(recordCases))] {
		o := Options{Patterns: []string{"./" + c.pkg}, Atomic: []string{"(*Store).Put"}, Rapid: c.rapid}
		want(t, c.mod, c.pkg, recordRec(t, c.mod, o)[c.pkg], c.rapid)
	}
	after := sums(t, filepath.Join("testdata", "rec"))
	if len(after) != len(before) {
		t.Errorf("files under testdata/rec: %d before, %d after", len(before), len(after))
	}
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s changed", p)
		}
	}
}

// plainSTD is what --rapid writes for the extended trace w: no post and
// wait lines, racq and rrel as acq and rel.
func plainSTD(w string) string {
	var plain []string
	for _, l := range strings.SplitAfter(w, "\n") {
		if strings.Contains(l, "|post(") || strings.Contains(l, "|wait(") || strings.Contains(l, "|give(") || strings.Contains(l, "|take(") {
			continue
		}
		l = strings.Replace(l, "|racq(", "|acq(", 1)
		plain = append(plain, strings.Replace(l, "|rrel(", "|rel(", 1))
	}
	return strings.Join(plain, "")
}

// TestRecordBadInput: a type error and cgo are refused with file:line,
// before anything runs.
func TestRecordBadInput(t *testing.T) {
	for _, c := range []struct{ pkg, want string }{
		{"./typeerr", "typeerr.go:4:"},
		{"./cgo", "cgo.go:3: cgo"},
	} {
		_, _, err := Run(Options{Dir: filepath.Join("testdata", "bad"), Out: t.TempDir(), Patterns: []string{c.pkg}})
		var bad *InputError
		if !errors.As(err, &bad) || !strings.Contains(bad.Msg, c.want) {
			t.Errorf("%s: err %v, want an InputError with %q", c.pkg, err, c.want)
		}
	}
}
