package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBankCommentMatchesWitness: the run that examples/bank.conc's comment
// draws ("A:read balance   B:read balance ...") is the cycle's events of
// the witness conc check prints, in order.
func TestBankCommentMatchesWitness(t *testing.T) {
	const path = "../../examples/bank.conc"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	drawn := regexp.MustCompile(`(?m)^//\s+(\w+:\w+ \w+(?:\s+\w+:\w+ \w+)+)\s*$`).FindStringSubmatch(string(src))
	require.NotNil(t, drawn, "bank.conc draws no run")
	o := conc("check", path)
	require.Equal(t, exitViolation, o.code, o.stderr)
	var cycle []string
	for _, m := range regexp.MustCompile(`(?m)^  \* \d+\s+(\w+)\s+(\w+ \w+)`).FindAllStringSubmatch(o.stdout, -1) {
		cycle = append(cycle, m[1]+":"+m[2])
	}
	require.Equal(t, cycle, regroup(strings.Fields(drawn[1])))
}

// regroup joins "A:read" and "balance" back into "A:read balance".
func regroup(fields []string) []string {
	var out []string
	for i := 0; i+1 < len(fields); i += 2 {
		out = append(out, fields[i]+" "+fields[i+1])
	}
	return out
}
