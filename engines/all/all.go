// Package all links every engine into the registry (package engines): a
// program that looks engines up by name imports it for its side effects. A
// new engine is a package under engines/ that registers itself in init,
// and a line here.
package all

import (
	_ "github.com/conc-dev/conc/engines/brute"
	_ "github.com/conc-dev/conc/engines/global"
	_ "github.com/conc-dev/conc/engines/profile"
)
