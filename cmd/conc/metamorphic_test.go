package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/conc-dev/conc/internal/testflag"
)

// Metamorphic properties: the verdict of a
// random input is unchanged under transformations that cannot change the
// answer (renaming, CRLF, comments, declaration order, gzip, a thread that
// touches only what it alone owns), and a monitor violation is a predict
// violation. The inputs come from gen's seeded generators; a failure prints
// the seed and both inputs.

// metamorphicCases is how many random inputs each property draws: a few
// hundred in the quick suite, many more under CONC_LONG=1 (the long checks
// CI runs).
func metamorphicCases(quick int) int { return testflag.N(quick, 10*quick) }

// seeded is the generator of case seed, and the seed to print on failure.
func seeded(seed int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x19))
}

// answer is what a property compares: the verdict and the exit code.
type answer struct {
	verdict string
	code    int
}

// jsonAnswer runs conc with --format json and stdin, and reads the verdict; an answer
// that is not a verdict (exit 2, output that is not JSON), or a verdict
// whose exit code is not docs/spec.md §6's, fails the test with why.
func jsonAnswer(t *testing.T, ctx, stdin string, args ...string) (answer, outcome) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append(args, "--format", "json"), strings.NewReader(stdin), &out, &errb)
	o := outcome{code, out.String(), errb.String()}
	var got struct {
		Verdict string `json:"verdict"`
	}
	if o.code == exitUsage || json.Unmarshal([]byte(o.stdout), &got) != nil {
		t.Fatalf("%s\nconc %s: exit %d\nstdout:\n%s\nstderr:\n%s", ctx, strings.Join(args, " "), o.code, o.stdout, o.stderr)
	}
	want := map[string]int{"serializable": exitSerializable, "violation": exitViolation, "unknown": exitUnknown}
	if c, ok := want[got.Verdict]; !ok || c != o.code {
		t.Fatalf("%s\nconc %s: verdict %q with exit %d", ctx, strings.Join(args, " "), got.Verdict, o.code)
	}
	return answer{got.Verdict, o.code}, o
}

// pick returns one of xs at random.
func pick[T any](rng *rand.Rand, xs ...T) T { return xs[rng.IntN(len(xs))] }

// freshNames returns n distinct names, each a random prefix and a number
// (so that no two collide and none is a keyword); names drawn for one
// namespace may equal names drawn for another, which the language allows
// between namespaces of different kinds.
func freshNames(rng *rand.Rand, n int) []string {
	prefixes := []string{"a_", "read_", "vars_", "T_", "_", "acct_", "Lock_", "x_"}
	perm := rng.Perm(n)
	out := make([]string, n)
	for i := range out {
		out[i] = pick(rng, prefixes...) + strconv.Itoa(perm[i])
	}
	return out
}
