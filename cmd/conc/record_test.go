package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// recordIn runs conc record in dir (a module under record/testdata).
func recordIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "..", "record", "testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(abs)
	var out, errb bytes.Buffer
	code := run(append([]string{"record"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// A package that does not type-check is refused before any test runs:
// the file and line, exit 2.
func TestRecordTypeError(t *testing.T) {
	code, out, errs := recordIn(t, "bad", "-o", t.TempDir(), "./typeerr")
	if code != exitUsage || out != "" || !regexp.MustCompile(`^conc: record: \S*typeerr\.go:4:\d+: .*\n$`).MatchString(errs) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line naming typeerr.go:4", code, out, errs)
	}
}

// The tests' own failure is passed on (go test's exit 1), and the line of
// a test binary that died says its trace is cut.
func TestRecordFailingTest(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := recordIn(t, "rec", "-o", dir, "./cut")
	want := filepath.Join(dir, "example.com_rec_cut.std.gz") + ": 2 events, 1 threads, cut (the test binary died)\n"
	if code != 1 || !strings.HasSuffix(out, want) {
		t.Errorf("exit %d, stdout %q; want exit 1 and a last line %q", code, out, want)
	}
}

func TestRecordUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"record"}, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "want PACKAGES") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
