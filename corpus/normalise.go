package corpus

import "regexp"

// Object ids differ from run to run: RoadRunner names an array element
// @26[41] (the object's id in hex, the index), conc record a field of the
// third object of its type pkg.T.f#3 and an element H#2[5]. The same bug
// met in two runs must be one group, so a signature's names lose them
// (docs/spec.md §5, "Several traces"):
//
//   - @ and hex digits at the start of a name (after a space or an
//     arrow; a location's @ follows its op) become @*;
//   - # and decimal digits become #*;
//   - [ decimal digits ] becomes [*].
//
// Code locations keep their digits: a site with a location reads
// op@LOC, whose @ follows the op's letters.
var (
	objectID = regexp.MustCompile(`(^|[ →])@[0-9A-Fa-f]+`)
	ordinal  = regexp.MustCompile(`#[0-9]+`)
	index    = regexp.MustCompile(`\[[0-9]+\]`)
)

// Normalise is sig with its names' object ids replaced by *.
func Normalise(sig string) string {
	sig = objectID.ReplaceAllString(sig, "$1@*")
	sig = ordinal.ReplaceAllString(sig, "#*")
	return index.ReplaceAllString(sig, "[*]")
}
