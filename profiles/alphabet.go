package profiles

import "github.com/conc-dev/conc/model"

// The extraction's sets range over the letters the automaton uses (its
// local alphabet), not over the program's 2v letters. A `vars` line of
// 10,000 names and a thread that touches two of them made every extraction
// allocate two (2v)²-bit tables (430 MB and 6.5 s in all; 30,000 names ran
// out of memory), though the profiles are over the two letters. Local
// letters number the used ones in increasing order of the global ones, so
// the order of a set's members is the same in both numberings; the
// collector's tables and the saturation's summaries are sized by them, and
// only the finished Profiles speak global letters again (with a row only
// for each letter the thread uses, newProfilesOver).

// alphabet numbers the letters an automaton's edges carry.
type alphabet struct {
	global []Letter // local letter -> global letter, increasing
	local  []int32  // global letter -> local letter, -1 if unused
	// identity: every letter, local = global (few variables)
	identity bool
}

// identityLetters is the number of letters up to which the alphabet is
// all of them, unscanned: the dense tables then take at most 2·512²/8 =
// 64 KiB, and the pass that collects the used letters would cost the
// straight-line extraction about 40% (BenchmarkExtractStraightLine).
const identityLetters = 512

// newAlphabet collects the letters of a's edges (out-of-range ones are left
// out: extraction reports them as errors when it meets them), or takes
// them all for a program of few variables.
func newAlphabet(a *model.Automaton, nvars int) *alphabet {
	al := &alphabet{local: make([]int32, 2*nvars)}
	if 2*nvars <= identityLetters {
		al.global = make([]Letter, 2*nvars)
		for l := range al.local {
			al.local[l], al.global[l] = int32(l), Letter(l)
		}
		al.identity = true
		return al
	}
	for _, es := range a.Out {
		for i := range es {
			if l := LetterOf(es[i].Ev); l >= 0 && int(l) < len(al.local) {
				al.local[l] = 1
			}
		}
	}
	for g, used := range al.local {
		al.local[g] = -1
		if used == 1 {
			al.local[g] = int32(len(al.global))
			al.global = append(al.global, Letter(g))
		}
	}
	return al
}

// of is the local letter of the valid global letter g.
func (al *alphabet) of(g Letter) Letter { return Letter(al.local[g]) }

// letterOf is the local letter of an access event, -1 for other events.
func (al *alphabet) letterOf(e model.Event) Letter {
	if g := LetterOf(e); g >= 0 {
		return al.of(g)
	}
	return -1
}

// size is the number of local letters.
func (al *alphabet) size() int { return len(al.global) }
