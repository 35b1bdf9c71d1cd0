package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBinaryInputRefused: a binary file given to check or profiles is
// refused in one line that names the file and the line of the first
// binary byte, exit 2, without parsing it (an executable gave millions of
// errors); text with a rune cut at the sniff's end is still parsed.
func TestBinaryInputRefused(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	exe := make([]byte, 4<<20)
	for i := range exe {
		exe[i] = byte(rng.IntN(256))
	}
	copy(exe, "\x7fELF\x02\x01\x01\x00")
	for _, tc := range []struct {
		src, want string
	}{
		{string(exe), ":1: not a .conc program: binary data (a NUL byte)"},
		{"vars x\nthread A { read x }\n\xff\xfe junk", ":3: not a .conc program: binary data (invalid UTF-8)"},
	} {
		path := file(t, "in.conc", tc.src)
		for _, cmd := range []string{"check", "profiles"} {
			o := conc(cmd, path)
			require.Equal(t, exitUsage, o.code, cmd)
			require.Equal(t, "conc: "+path+tc.want+"\n", o.stderr, cmd)
		}
	}
	o := concStdin(string(exe), "check", "-")
	require.Equal(t, "conc: <stdin>:1: not a .conc program: binary data (a NUL byte)\n", o.stderr)

	// A long comment whose last rune straddles the sniffed prefix: text.
	pad := "// " + strings.Repeat("é", 8<<10) + "\nvars x\nthread A { atomic { read x; read x } }\n"
	require.Equal(t, exitSerializable, conc("check", file(t, "long.conc", pad)).code)
}
