package bench

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// Machine describes where a sweep ran, for the "made by" line of a
// document: the CPU model, the cores Go may use, the Go version and the
// date (UTC). Times mean little without it; state counts do not need it.
func Machine(now time.Time) string {
	cpu := runtime.GOARCH
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		if m := cpuModel(string(b)); m != "" {
			cpu = m
		}
	}
	return machineLine(cpu, runtime.NumCPU(), runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH, now)
}

func machineLine(cpu string, cores int, goVersion string, now time.Time) string {
	return fmt.Sprintf("%s, %d cores, %s, %s", cpu, cores, goVersion, now.UTC().Format("2006-01-02"))
}

// cpuModel is the first "model name" of a Linux /proc/cpuinfo ("" if none).
func cpuModel(cpuinfo string) string {
	for _, line := range strings.Split(cpuinfo, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return ""
}
