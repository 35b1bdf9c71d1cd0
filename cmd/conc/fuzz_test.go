package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conc-dev/conc/check"
)

// fuzzCommands are the commands FuzzCLI runs: those that read an input
// (gen and bench write one).
var fuzzCommands = []string{"check", "predict", "monitor", "profiles"}

// fuzzLimits bound each run of a deciding command, so that the fuzzer
// measures crashes, not slowness; they come last, so they override any
// fuzzed value.
var fuzzLimits = map[string][]string{
	"check":   {"--timeout", "300ms", "--max-states", "20000"},
	"predict": {"--timeout", "300ms", "--max-states", "20000"},
	"monitor": {"--timeout", "300ms"},
}

// Bits of FuzzCLI's cmd besides the command's index: gzip the input; put
// the flags before the input rather than after.
const (
	fuzzGzip       = 0x40
	fuzzFlagsFirst = 0x80
)

// fuzzPatience is how long a run may take, --timeout included, before
// FuzzCLI calls it a hang: generous, as the machine may be busy.
const fuzzPatience = 5 * time.Second

// FuzzCLI runs the command line as a whole, flags and input together: the
// command (and the bits above), whitespace-separated flags, the input (a
// file, or standard input) and maybe --format json. Whatever they are, conc must answer with an exit
// code of docs/spec.md §6; exit 2 with a message on standard error, never a
// panic or a goroutine dump; and a violation in JSON carries its witness.
// Paths in the flags are dropped and the run happens in a fresh directory,
// so that --dot, --html and --witness-out write nowhere else.
//
//	go test ./cmd/conc -run '^$' -fuzz FuzzCLI -fuzztime 5m
func FuzzCLI(f *testing.F) {
	addFuzzSeeds(f)
	saved := check.TimeoutGrace
	check.TimeoutGrace = 100 * time.Millisecond
	defer func() { check.TimeoutGrace = saved }()
	f.Fuzz(func(t *testing.T, cmd uint8, flags string, input []byte, stdin, asJSON bool) {
		name := fuzzCommands[int(cmd)%len(fuzzCommands)]
		dir := t.TempDir()
		t.Chdir(dir)
		data, in := input, "-"
		if cmd&fuzzGzip != 0 {
			data = gzipped(t, input)
		}
		if !stdin {
			in = "input"
			if err := os.WriteFile(filepath.Join(dir, in), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := append([]string{name, in}, fuzzFlags(flags)...)
		if cmd&fuzzFlagsFirst != 0 {
			args = append(append([]string{name}, fuzzFlags(flags)...), in)
		}
		args = append(args, fuzzLimits[name]...)
		if asJSON {
			args = append(args, "--format", "json")
		}
		var out, errb bytes.Buffer
		start := time.Now()
		code := run(args, bytes.NewReader(data), &out, &errb)
		if d := time.Since(start); d > fuzzPatience {
			t.Fatalf("conc %q took %v (--timeout 300ms)", args, d)
		}
		checkCLIAnswer(t, args, code, out.String(), errb.String(), asJSON)
	})
}

// fuzzFlags splits flags at white space and drops words that name a path
// outside the working directory.
func fuzzFlags(flags string) []string {
	var out []string
	for _, w := range strings.Fields(flags) {
		if !strings.ContainsAny(w, `/\`) && !strings.HasPrefix(w, "~") {
			out = append(out, w)
		}
	}
	return out
}

// checkCLIAnswer is FuzzCLI's oracle.
func checkCLIAnswer(t *testing.T, args []string, code int, stdout, stderr string, asJSON bool) {
	t.Helper()
	for _, bad := range []string{"goroutine ", "panic", "internal error"} {
		if strings.Contains(stderr, bad) {
			t.Fatalf("conc %q: %q on stderr:\n%s", args, bad, stderr)
		}
	}
	switch code {
	case exitUsage:
		// One line, or one a static error (lang caps them at 10, then a
		// count), after any --progress lines.
		lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1
		switch {
		case strings.TrimSpace(stderr) == "":
			t.Fatalf("conc %q: exit 2 without a message", args)
		case lines > 12 && !strings.Contains(strings.Join(args, " "), "progress"):
			t.Fatalf("conc %q: exit 2 with %d lines on stderr:\n%s", args, lines, stderr)
		}
	case exitSerializable, exitViolation, exitUnknown:
		if asJSON && args[0] != "profiles" {
			checkJSONVerdict(t, args, code, stdout, stderr)
		}
	default:
		t.Fatalf("conc %q: exit %d\nstderr:\n%s", args, code, stderr)
	}
}

// checkJSONVerdict: in JSON mode the report (on stdout, or on stderr when
// an output went to stdout) names the verdict of the exit code, and a
// violation carries a witness (check, predict), its violations (monitor
// --cycles), or its broken transactions or joint violation (monitor), and
// unknown says why.
func checkJSONVerdict(t *testing.T, args []string, code int, stdout, stderr string) {
	t.Helper()
	if code == exitSerializable && (strings.HasPrefix(stdout, "Usage: ") || strings.HasPrefix(stdout, "conc ")) {
		return // --help or --version
	}
	doc := stdout
	if !strings.HasPrefix(doc, "{") {
		// The report went to stderr, maybe after progress lines.
		doc = stderr[max(0, strings.Index("\n"+stderr, "\n{")):]
	}
	var rep fuzzReport
	if err := json.Unmarshal([]byte(doc), &rep); err != nil {
		t.Fatalf("conc %q: exit %d, no JSON report (%v)\nstdout:\n%s\nstderr:\n%s", args, code, err, stdout, stderr)
	}
	want := map[int]string{exitSerializable: "serializable", exitViolation: "violation", exitUnknown: "unknown"}[code]
	if rep.Verdict != want {
		t.Fatalf("conc %q: exit %d with verdict %q", args, code, rep.Verdict)
	}
	evidence := rep.Witness != nil || len(rep.Violations) > 0 || len(rep.NonAtomicGroups) > 0 || len(rep.Joint) > 0
	if code == exitViolation && !evidence {
		t.Fatalf("conc %q: a violation without a witness:\n%s", args, doc)
	}
	if code == exitUnknown && rep.Reason == "" {
		t.Fatalf("conc %q: unknown without a reason:\n%s", args, doc)
	}
	if rep.NonAtomic != nil {
		if msg := rep.blameMismatch(); msg != "" {
			t.Fatalf("conc %q: %s:\n%s", args, msg, doc)
		}
	}
}

// fuzzReport is the part of a JSON report checkJSONVerdict reads.
type fuzzReport struct {
	Verdict         string            `json:"verdict"`
	Reason          string            `json:"reason"`
	Witness         *json.RawMessage  `json:"witness"`
	Violations      []json.RawMessage `json:"violations"`
	NonAtomic       *int64            `json:"non_atomic"`
	NonAtomicGroups []struct {
		Count int               `json:"count"`
		Cycle []json.RawMessage `json:"cycle"`
	} `json:"non_atomic_groups"`
	NonAtomicTxns []struct {
		Group int               `json:"group"`
		Path  []json.RawMessage `json:"path"`
	} `json:"non_atomic_transactions"`
	Joint []struct {
		Cycle []json.RawMessage `json:"cycle"`
	} `json:"joint"`
	OnCycle *int64 `json:"on_cycle"`
}

// blameMismatch is what is wrong with monitor's default answer, if
// anything: non_atomic is the sum of its groups' counts and the number of
// transactions listed, each listed in a group of that count with a path;
// a joint violation (one cycle) only when none is broken and the trace is
// not serializable; no more broken than atomic blocks on a cycle, and at
// least one of those (every cycle passes through one), once the trace is
// decided.
func (r *fuzzReport) blameMismatch() string {
	n, sum := *r.NonAtomic, int64(0)
	perGroup := make([]int, len(r.NonAtomicGroups))
	for _, x := range r.NonAtomicTxns {
		if x.Group < 1 || x.Group > len(perGroup) || len(x.Path) == 0 {
			return "a broken transaction with no group or path"
		}
		perGroup[x.Group-1]++
	}
	for k, g := range r.NonAtomicGroups {
		sum += int64(g.Count)
		if g.Count != perGroup[k] || len(g.Cycle) < 2 {
			return fmt.Sprintf("group %d counts %d, lists %d, cycle of %d", k+1, g.Count, perGroup[k], len(g.Cycle))
		}
	}
	onCycle := int64(0)
	if r.OnCycle != nil {
		onCycle = *r.OnCycle
	}
	switch {
	case sum != n || int64(len(r.NonAtomicTxns)) != n:
		return fmt.Sprintf("non_atomic %d, groups' counts %d, %d listed", n, sum, len(r.NonAtomicTxns))
	case len(r.Joint) > 0 && (n > 0 || r.Verdict != "violation" || len(r.Joint) != 1 || len(r.Joint[0].Cycle) < 2):
		return "a joint violation beside broken transactions, or not one cycle"
	case r.Verdict == "violation" && n == 0 && len(r.Joint) == 0:
		return "a violation with neither broken transactions nor a joint violation"
	case r.Verdict == "serializable" && (n > 0 || onCycle > 0):
		return "serializable, with broken transactions or transactions on a cycle"
	case r.Verdict == "violation" && (n > onCycle || onCycle < 1):
		return fmt.Sprintf("non_atomic %d, on_cycle %d", n, onCycle)
	}
	return ""
}

// addFuzzSeeds seeds FuzzCLI with every example program, a few STD traces
// and the common flags of each command.
func addFuzzSeeds(f *testing.F) {
	examples, _ := filepath.Glob("../../examples/*.conc")
	flagSets := []string{"", "--engine brute", "--engine global --lock-edges", "--ignore-sync --quiet",
		"--max-depth 3 --max-stack 2", "--engine profile", "--dot -", "--dot d.dot",
		"--html -", "--html h.html --lock-edges"}
	for i, path := range examples {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(0), flagSets[i%len(flagSets)], src, i%3 == 0, i%2 == 0)
		if i%4 == 0 {
			f.Add(uint8(3), "", src, false, i%8 == 0)
		}
	}
	traces := []string{lostUpdateTrace, lockedTrace, reorderTrace, guardedTrace, forkedTrace,
		"T|begin\r\nT|r(x)|1\r\nT|end\r\n", "T|begin\rU|w(x)\rT|r(x)\r", "0|fork(1)\n1|w(x)\n0|join(1)\n",
		"T|rd(x)\n", "", "T|acq(m)\nT|acq(m)\nT|rel(m)\nT|rel(m)\n"}
	for i, tr := range traces {
		f.Add(uint8(1), []string{"--lock-edges", "--witness-out w.std", "--engine brute", "--lenient", "--ignore-sync"}[i%5],
			[]byte(tr), i%2 == 0, i%3 != 0)
		f.Add(uint8(2), []string{"--first", "--lock-edges --max-cycle 1", "--dot -", "--lenient", ""}[i%5],
			[]byte(tr), i%2 == 1, i%3 == 0)
		f.Add(uint8(1+i%2), []string{"--html -", "--html h.html --lock-edges"}[i%2], []byte(tr), i%3 == 1, i%2 == 0)
	}
	f.Add(uint8(0), "--help", []byte{}, true, true)
	f.Add(uint8(fuzzGzip|2), "--lock-edges", []byte(lostUpdateTrace), false, true)
	f.Add(uint8(fuzzFlagsFirst|1), "--engine global", []byte(reorderTrace), true, true)
	f.Add(uint8(fuzzGzip|fuzzFlagsFirst|0), "--engine brute --max-depth 4", []byte(lostUpdate), false, true)
	f.Add(uint8(1), "--timeout 5 --max-states -1", []byte("T|w(x)\n"), true, false)
}
