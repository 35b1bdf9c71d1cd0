package report

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"text/tabwriter"

	"github.com/stretchr/testify/require"
)

// writeRun lays out its columns as text/tabwriter does (the layout it
// replaced, which held the whole text): random runs with wide, empty and
// non-ASCII cells render byte for byte the same.
func TestWriteRunMatchesTabwriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	words := []string{"", "T1", "main-thread", "x", "balance", "λ", "über", "bank.conc:7:5", "a.java:12"}
	pick := func() string { return words[rng.IntN(len(words))] }
	for range 200 {
		w := &Witness{}
		for range rng.IntN(30) {
			w.Run = append(w.Run, Event{Thread: pick(), Op: []string{"read", "write", "acquire"}[rng.IntN(3)],
				Target: pick(), Pos: pick(), OnCycle: rng.IntN(2) == 0})
		}
		var got bytes.Buffer
		bw := bufio.NewWriter(&got)
		writeRun(bw, w)
		require.NoError(t, bw.Flush())

		var want bytes.Buffer
		want.WriteString("witness run (* marks the events of the cycle):\n")
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
		for i, e := range w.Run {
			c := runCells(i, e)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c[0], c[1], c[2], c[3])
		}
		require.NoError(t, tw.Flush())
		require.Equal(t, want.String(), got.String())
	}
}
