package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMarkdownRoundTrip: the Markdown table of AsPrinted points reads back
// as the same points, so that a document's fits and plots can be made
// again from its tables, and writing them again gives the same text.
func TestMarkdownRoundTrip(t *testing.T) {
	pts := AsPrinted(append(powerPoints("global", 3, 1.37, 2.2),
		Point{Engine: "profile", N: 16, K: 3, Threads: 3, Verdict: "violation", Time: 12345 * time.Nanosecond, Alloc: 1536},
		Point{Engine: "global", N: 32, K: 3, Threads: 3, Skipped: "timed out at n=16"}))
	for i := range pts[:4] {
		pts[i].Alloc = uint64(i)<<20 + 777
		pts[i].Threads = 3
	}
	pts = AsPrinted(pts)
	var b strings.Builder
	require.NoError(t, WriteMarkdown(&b, "conc bench --family chain", "a CPU, 2 cores, go1 linux/amd64, 2026-01-02", pts))
	md := b.String()
	require.True(t, strings.HasPrefix(md, "Made by `conc bench --family chain` on a CPU, 2 cores, go1 linux/amd64, 2026-01-02.\n\n| engine |"), md)
	require.Contains(t, md, "| profile | 16 | 3 | 3 | violation | 0 | 12.3µs | 1.5KB |\n")
	require.Contains(t, md, "| global | 32 | 3 | 3 | skipped: timed out at n=16 | - | - | - |\n")
	require.Contains(t, md, "```text\nglobal   time   ~ n^2.")
	back, err := ParseTable(md)
	require.NoError(t, err)
	require.Equal(t, pts, back)
	var again strings.Builder
	require.NoError(t, WriteMarkdown(&again, "conc bench --family chain", "a CPU, 2 cores, go1 linux/amd64, 2026-01-02", back))
	require.Equal(t, md, again.String())
	_, err = ParseTable("no table here")
	require.Error(t, err)
	_, err = ParseTable("| engine | n | k |\n| global | x | 1 | 1 | violation | 1 | 1ms | 1B |\n")
	require.Error(t, err)
}

func TestParseFormats(t *testing.T) {
	for _, d := range []time.Duration{999, 12345, 1500 * time.Microsecond, 2500 * time.Millisecond, 62 * time.Millisecond} {
		back, err := ParseDuration(FormatDuration(d))
		require.NoError(t, err)
		require.Equal(t, FormatDuration(d), FormatDuration(back))
	}
	for _, n := range []uint64{512, 1536, 3 << 20, 2 << 30, 123456789} {
		back, err := ParseBytes(FormatBytes(n))
		require.NoError(t, err)
		require.Equal(t, FormatBytes(n), FormatBytes(back))
	}
	_, err := ParseBytes("lots")
	require.Error(t, err)
}

func TestMachine(t *testing.T) {
	info := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD  EPYC 7B13\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n"
	require.Equal(t, "AMD EPYC 7B13", cpuModel(info))
	require.Equal(t, "", cpuModel("processor: 0\n"))
	now := time.Date(2026, 11, 25, 23, 30, 0, 0, time.FixedZone("X", -3*3600))
	require.Equal(t, "AMD EPYC 7B13, 2 cores, go1.26 linux/amd64, 2026-11-26", machineLine("AMD EPYC 7B13", 2, "go1.26 linux/amd64", now))
	require.Regexp(t, `^.+, \d+ cores, go\S+ \w+/\w+, \d{4}-\d\d-\d\d$`, Machine(now))
}
