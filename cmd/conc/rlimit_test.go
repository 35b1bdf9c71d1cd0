//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
)

// Under ulimit -v or -d, without --max-memory, the default budget must fit
// under the limit: these runs are conc as prlimit starts it (the limit set
// before exec, so that the runtime's own reservations at start count, as
// they do for a user), and the inputs are crash cases that otherwise end
// in the runtime's "fatal error: out of memory".
const (
	// rlimitChildEnv ("as=BYTES" or "data=BYTES") makes TestMain set the
	// limit and exec this binary again, as prlimit does.
	rlimitChildEnv = "CONC_RLIMIT_CHILD"
	// rlimitRunEnv makes TestMain run conc under the inherited limits.
	rlimitRunEnv = "CONC_RLIMIT_RUN"
)

// execUnderLimit sets the limit spec names and execs this binary as conc.
func execUnderLimit(spec string) {
	kind, size, _ := strings.Cut(spec, "=")
	n, err := strconv.ParseUint(size, 10, 64)
	res := map[string]int{"as": syscall.RLIMIT_AS, "data": syscall.RLIMIT_DATA}
	r, ok := res[kind]
	if err != nil || !ok {
		fmt.Fprintf(os.Stderr, "bad %s %q\n", rlimitChildEnv, spec)
		os.Exit(100)
	}
	if err := syscall.Setrlimit(r, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		os.Exit(100)
	}
	env := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, rlimitChildEnv+"=") })
	err = syscall.Exec(os.Args[0], os.Args, append(env, rlimitRunEnv+"=1"))
	fmt.Fprintln(os.Stderr, "exec:", err)
	os.Exit(100)
}

// underLimit runs conc with args under the limit spec, and returns its
// exit code and output.
func underLimit(t *testing.T, spec string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), rlimitChildEnv+"="+spec)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "conc %v did not end within 120 s", args)
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		require.NoError(t, err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// TestDefaultBudgetUnderRlimit: under an address-space limit of 4 GiB or
// a data limit of 2 GiB, and no --max-memory, inputs that explode end in
// unknown (exit 3) naming the budget, never in the runtime's crash.
func TestDefaultBudgetUnderRlimit(t *testing.T) {
	cases := []struct {
		name, file, src string
		args            []string
	}{
		{"compiling 29 M events", "events.conc", manyEvents, []string{"check"}},
		{"searching bank.conc with repeat 1000000", "bank.conc", bankMillion, []string{"check"}},
	}
	if testflag.Long() {
		cases = append(cases, struct {
			name, file, src string
			args            []string
		}{"profiles of two transactions of 3,000 accesses", "wide.conc", wideTransactions(3000), []string{"profiles"}})
	}
	dir := t.TempDir()
	for _, spec := range []string{fmt.Sprint("as=", 4<<30), fmt.Sprint("data=", 2<<30)} {
		for _, tc := range cases {
			t.Run(spec+" "+tc.name, func(t *testing.T) {
				t.Parallel()
				kind, _, _ := strings.Cut(spec, "=")
				path := filepath.Join(dir, kind+"-"+tc.file)
				require.NoError(t, os.WriteFile(path, []byte(tc.src), 0o644))
				code, stdout, stderr := underLimit(t, spec, append([]string{tc.args[0], path}, tc.args[1:]...)...)
				require.False(t, strings.Contains(stderr, "fatal error"), "a runtime crash: %.200s", stderr)
				require.Equal(t, exitUnknown, code, "stdout: %s\nstderr: %s", stdout, stderr)
				require.Regexp(t, `(?m)^unknown: .*memory budget of .*\(--max-memory raises it\)`, stdout)
			})
		}
	}
}
