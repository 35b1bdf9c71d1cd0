package report

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
)

// TestViewJSONStreamMatchesEncoder: the serial order written one
// transaction at a time is byte for byte what encoding/json writes,
// names that need escaping and open transactions included.
func TestViewJSONStreamMatchesEncoder(t *testing.T) {
	end := func(n int64) *int64 { return &n }
	for _, order := range [][]ViewTxn{
		{{Thread: "T1", Begin: 1, End: end(5)}},
		{{Thread: "a \"b\" <c>", Begin: 3, End: end(3)}, {Thread: "é\t", Begin: 1, End: nil}, {Thread: "0", Begin: 7, End: end(9)}},
	} {
		rep := BuildView(ViewAnswer{Verdict: engines.Serializable, Threads: 2, Vars: 1, Names: []string{"T1"},
			Transactions: int64(len(order)), DecidedBy: "arcs", Order: order})
		var streamed, encoded bytes.Buffer
		require.NoError(t, WriteJSON(&streamed, rep))
		require.NoError(t, encodeJSON(&encoded, rep))
		require.Equal(t, encoded.String(), streamed.String())
	}
}
