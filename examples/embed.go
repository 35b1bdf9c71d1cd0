package examples

import "embed"

// Files are the catalogue's .conc sources, embedded so that conc serve's
// playground preloads them from the binary alone.
//
//go:embed *.conc
var Files embed.FS
