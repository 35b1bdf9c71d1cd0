package trace

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

// counter fills batches with events numbered 1..n (Line), then reports end.
func counter(n int64, end error) func([]Event) (int, error) {
	var next int64
	return func(evs []Event) (int, error) {
		k := 0
		for ; k < len(evs) && next < n; k++ {
			next++
			evs[k] = Event{Line: next}
		}
		if next == n {
			return k, end
		}
		return k, nil
	}
}

// ReadAhead hands over every event in order, by batch or one at a time,
// with the error that ended the input; Close after an early stop returns.
func TestReadAhead(t *testing.T) {
	const n = 3*aheadLen + 17
	a := ReadAhead(counter(n, io.EOF))
	var got int64
	for {
		evs, err := a.Batch()
		for _, e := range evs {
			got++
			require.Equal(t, got, e.Line)
		}
		if err != nil {
			require.ErrorIs(t, err, io.EOF)
			break
		}
	}
	a.Close()
	require.EqualValues(t, n, got)

	bad := errors.New("bad line")
	a = ReadAhead(counter(n, bad))
	var ev Event
	got = 0
	var err error
	for err = a.Next(&ev); err == nil; err = a.Next(&ev) {
		got++
		require.Equal(t, got, ev.Line)
	}
	a.Close()
	require.ErrorIs(t, err, bad)
	require.EqualValues(t, n, got)

	a = ReadAhead(counter(100*aheadLen, io.EOF))
	_, err = a.Batch()
	require.NoError(t, err)
	a.Close() // stops the goroutine with batches still waiting
}
