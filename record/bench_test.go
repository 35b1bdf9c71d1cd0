package record

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// busyBinaries builds testdata/bench/busy's test binary twice, plain and
// instrumented (go test -c with the recorder's overlay), into dir.
func busyBinaries(tb testing.TB, dir string) (plain, rec string) {
	tb.Helper()
	mod, err := filepath.Abs(filepath.Join("testdata", "bench"))
	if err != nil {
		tb.Fatal(err)
	}
	pkgs, err := load(mod, []string{"./busy"})
	if err != nil {
		tb.Fatal(err)
	}
	root, path, err := mainModule(pkgs)
	if err != nil {
		tb.Fatal(err)
	}
	_, ov, err := overlay(dir, root, path, pkgs, nil)
	if err != nil {
		tb.Fatal(err)
	}
	plain, rec = filepath.Join(dir, "plain.test"), filepath.Join(dir, "rec.test")
	for _, args := range [][]string{{"-o", plain}, {"-overlay=" + ov, "-o", rec}} {
		cmd := exec.Command("go", append(append([]string{"test", "-c", "-vet=off"}, args...), "./busy")...)
		cmd.Dir = mod
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("go test -c: %v\n%s", err, out)
		}
	}
	return plain, rec
}

// runBusy runs a busy test binary over n keys and returns its time; with
// trace set, it records into that file.
func runBusy(b *testing.B, bin, trace string, n string) time.Duration {
	cmd := exec.Command(bin, "-test.count=1")
	cmd.Env = append(os.Environ(), "BUSY_N="+n, "CONC_RECORD_TRACE="+trace)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", bin, err, out)
	}
	return time.Since(start)
}

// BenchmarkRecordOverhead times the busy test (4 workers, a read-write
// lock, a map, a channel; 200,000 keys, about 2.3 million events) run
// plain and recorded. Each iteration runs both binaries once; the
// metric "x" is the recorded time over the plain time, "ns/event" what
// one recorded event costs.
func BenchmarkRecordOverhead(b *testing.B) {
	dir := b.TempDir()
	plain, rec := busyBinaries(b, dir)
	trace := filepath.Join(dir, "busy.std.gz")
	const n = "200000"
	var tPlain, tRec time.Duration
	for b.Loop() {
		tPlain += runBusy(b, plain, "", n)
		tRec += runBusy(b, rec, trace, n)
	}
	st, err := finishTrace(trace)
	if err != nil || st.Cut {
		b.Fatalf("trace: %v, cut %v", err, st.Cut)
	}
	b.ReportMetric(float64(tRec)/float64(tPlain), "x")
	b.ReportMetric(float64(tRec-tPlain)/float64(b.N)/float64(st.Events), "ns/event")
	b.ReportMetric(float64(st.Events), "events")
}
