package corpus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Normalise drops the object ids of names (RoadRunner's, conc record's)
// and keeps code locations, whose @ follows an op.
func TestNormalise(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"r @26[41] | w @26[41] | w @27[40]", "r @*[*] | w @*[*] | w @*[*]"},
		{"w@40 | rel@18 | acq@18", "w@40 | rel@18 | acq@18"},
		{"r @0E[11]→w @0D[0]", "r @*[*]→w @*[*]"},
		{"r @06.sor/JGFSORBench.size_I r @06.sor/JGFSORBench.size_I", "r @*.sor/JGFSORBench.size_I r @*.sor/JGFSORBench.size_I"},
		{"w bank.Account.balance#2 | r bank.Account.balance#13", "w bank.Account.balance#* | r bank.Account.balance#*"},
		{"w basic.Store.buf#1[0] w basic.Store.items[]#1", "w basic.Store.buf#*[*] w basic.Store.items[]#*"},
		{"w@basic/basic.go:25 (*Store).Add | r@a.go:3 f", "w@basic/basic.go:25 (*Store).Add | r@a.go:3 f"},
		{"unary | w x→r x", "unary | w x→r x"},
	} {
		require.Equal(t, c.want, Normalise(c.in), c.in)
		require.Equal(t, c.want, Normalise(c.want), "normalising twice changes nothing")
	}
}
