package docblocks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExtract(t *testing.T) {
	md := "# Title\n\n```conc\nvars x\nthread T { read x }\n```\n\ntext\n```text\nout\n```\n```conc\nthread U { }\n"
	got := Extract(md)
	require.Equal(t, []Block{
		{Info: "conc", Line: 4, Text: "vars x\nthread T { read x }\n"},
		{Info: "text", Line: 10, Text: "out\n"},
		{Info: "conc", Line: 13, Text: "thread U { }\n\n"},
	}, got)
	require.Equal(t, []Block{got[0], got[2]}, Of(got, "conc"))
}
