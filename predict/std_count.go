package predict

import "github.com/conc-dev/conc/model"

// STDEvents is how many events WriteSTD writes for wit: its run but for
// the unary wrappers it leaves out (unaryWrappers). The text report gives
// this number next to the run's length, so that it agrees with the
// --witness-out file's line count.
func STDEvents(p *model.Program, wit *model.Witness) int {
	n := 0
	for _, left := range unaryWrappers(wit, len(p.Threads)) {
		if !left {
			n++
		}
	}
	return n
}
