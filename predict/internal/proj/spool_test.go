package proj

import (
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/trace"
)

// TestSpoolRoundTrip: events come back as written, from memory and after
// the spool spilled to its file (which Close removes); large ids and line
// jumps survive the varints.
func TestSpoolRoundTrip(t *testing.T) {
	for _, memMax := range []int{1 << 30, 64} {
		rng := rand.New(rand.NewPCG(1, 2))
		sp, err := NewSpool(t.TempDir())
		require.NoError(t, err)
		sp.memMax = memMax
		var want []trace.Event
		line := int64(0)
		for i := 0; i < 5000; i++ {
			line += 1 + int64(rng.IntN(3)/2)*int64(rng.IntN(1<<40))
			ev := trace.Event{Thread: int32(rng.IntN(3) * rng.IntN(100000)), Op: model.Op(1 + rng.IntN(8)), Target: -1, Loc: -1, Line: line}
			if ev.Op.HasTarget() {
				ev.Target = int32(rng.IntN(1 << 30))
			}
			require.NoError(t, sp.put(&ev))
			want = append(want, ev)
		}
		require.NoError(t, sp.finish())
		require.Equal(t, memMax < 1<<30, sp.f != nil, "spilled")
		for pass := 0; pass < 2; pass++ {
			r := sp.Reader()
			var got []trace.Event
			var ev trace.Event
			for {
				err := r.Next(&ev)
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				got = append(got, ev)
			}
			require.Equal(t, want, got)
		}
		name := ""
		if sp.f != nil {
			name = sp.f.Name()
		}
		require.NoError(t, sp.Close())
		if name != "" {
			_, err := os.Stat(name)
			require.True(t, os.IsNotExist(err))
		}
	}
}
