package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestVersionOf: the module version and the commit of Go's build info, as
// a build from a clone has them; "devel" and "commit unknown" without.
func TestVersionOf(t *testing.T) {
	vcs := func(version, rev, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/conc-dev/conc", Version: version},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
				{Key: "vcs.time", Value: "2026-11-25T00:20:10Z"}, {Key: "vcs.modified", Value: modified}}}
	}
	const rev = "6f8a7e065c91b012f437d8a5978b77a74b624b84"
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{vcs("v1.2.0", rev, "false"), "conc v1.2.0 (commit " + rev + "; go1.26)"},
		{vcs("v0.0.0-20261125002010-6f8a7e065c91+dirty", rev, "true"),
			"conc v0.0.0-20261125002010-6f8a7e065c91+dirty (commit " + rev + ", modified; go1.26)"},
		{vcs("(devel)", rev, "false"), "conc devel (commit " + rev + "; go1.26)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "conc devel (commit unknown; go1.26)"},
		{nil, "conc devel (commit unknown; go1.26)"},
	} {
		require.Equal(t, tc.want, versionOf(tc.bi, "go1.26"))
	}
}
