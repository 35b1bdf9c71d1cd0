package budget

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processLimits are RLIMIT_AS against the address space the process has
// mapped (VmSize) and RLIMIT_DATA against its data mappings (VmData).
func processLimits() []processLimit {
	vm := procStatus("VmSize:", "VmData:")
	return []processLimit{
		{rlimit(syscall.RLIMIT_AS), vm["VmSize:"]},
		{rlimit(syscall.RLIMIT_DATA), vm["VmData:"]},
	}
}

// rlimit is the soft limit of resource r in bytes, 0 when unlimited.
func rlimit(r int) int64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(r, &l); err != nil || l.Cur > 1<<62 { // RLIM_INFINITY is all ones
		return 0
	}
	return int64(l.Cur)
}

// procStatus reads the given kB fields of /proc/self/status, in bytes.
func procStatus(fields ...string) map[string]int64 {
	out := map[string]int64{}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, name := range fields {
			if rest, ok := strings.CutPrefix(sc.Text(), name); ok {
				kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				if err == nil {
					out[name] = kb << 10
				}
			}
		}
	}
	return out
}
