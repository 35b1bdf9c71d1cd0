package cliflag

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseTimeout(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"5s", 5 * time.Second, ""},
		{"1h30m", 90 * time.Minute, ""},
		{"1ns", time.Nanosecond, ""},
		{"2562047h47m16s", MaxTimeout, ""},
		{"5", 0, "a duration needs a unit, e.g. 5s or 2m"},
		{"0.5", 0, "a duration needs a unit"},
		{"0", 0, "want a positive duration"},
		{"0s", 0, "want a positive duration"},
		{"-1s", 0, "want a positive duration"},
		{"soon", 0, "want a duration such as"},
	} {
		got, err := ParseTimeout(tc.in)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
}
