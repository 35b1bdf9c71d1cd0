package record

import (
	"embed"
	"io/fs"
	"strings"
)

// rtSource is the runtime's source, overlaid into the user's module.
//
//go:embed rt/*.go
var rtSource embed.FS

// rtDir is the directory, under the module root, that the runtime is
// overlaid into; its import path is the module path and this.
const rtDir = "concrecord_rt"

// runtimeFiles are the runtime's files (not its tests), by base name.
func runtimeFiles() (map[string][]byte, error) {
	files := map[string][]byte{}
	entries, err := fs.ReadDir(rtSource, "rt")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := rtSource.ReadFile("rt/" + e.Name())
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	return files, nil
}
