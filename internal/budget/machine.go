package budget

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
)

// fallback is the machine's memory when neither /proc/meminfo nor a cgroup
// tells it (not Linux): a size every machine that runs conc has.
const fallback = 4 << 30

// Default is the budget of a run without --max-memory: three quarters of
// the machine's memory, leaving the rest to the system and to the memory
// the runtime holds beside the heap, or less under an address-space or
// data limit (rlimit.go).
func Default() int64 {
	d := machine() / 4 * 3
	if r := rlimitBudget(); r > 0 {
		d = min(d, r)
	}
	return d
}

// machine is the memory this process may use: the physical RAM, or the
// cgroup's limit when that is lower.
var machine = sync.OnceValue(func() int64 {
	m := physical()
	if m <= 0 {
		m = fallback
	}
	if c := cgroupLimit(); c > 0 && c < m {
		m = c
	}
	return m
})

// physical reads MemTotal from /proc/meminfo (0 when it cannot).
func physical() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupFiles hold the memory limit of the process's cgroup: v2's
// memory.max, v1's memory.limit_in_bytes ("max" or a huge number when
// unset).
var cgroupFiles = []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}

// cgroupLimit is the cgroup's memory limit, or 0 when none is set.
func cgroupLimit() int64 {
	for _, name := range cgroupFiles {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		if v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64); err == nil && v > 0 && v < 1<<60 {
			return v
		}
	}
	return 0
}
