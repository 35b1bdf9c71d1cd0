package profiles

import "github.com/conc-dev/conc/model"

// summary is the abstraction of a set of paths that Lemma 4's saturation
// keeps for each pair (entry, state): everything the profiles of a longer run
// need to know about the part of it that these paths make. A boundary is a
// begin or an end event (either one closes the transaction open before it,
// as in extract.go). A path is flat when it has no boundary, crossing
// otherwise; for the set of paths the summary holds
//
//	flat   the letters of its flat paths          (flagFlat: one exists)
//	last   the letters after the last boundary    (flagCross: a crossing
//	pre    the letters before the last boundary    path exists)
//
// each a union over the paths. So a run that reaches the paths' start with
// open-transaction letters C and closed-transaction letters B reaches their
// end with
//
//	cur = (C if flagFlat) ∪ flat ∪ last,   bef = B ∪ (C if flagCross) ∪ pre,
//
// a union of what each single path gives. Concatenation and events act on
// summaries path by path, and the choice of a path on each side is free, so
// the union of the concatenations is the concatenation of the unions: that
// is what makes summaries composable (orConcat) and the saturation exact.
type summary struct {
	flags           uint8
	flat, last, pre Set
}

const (
	flagFlat  uint8 = 1 << iota // some path has no boundary
	flagCross                   // some path has a boundary
)

// newSummary returns the empty summary (no path) of width w, its three sets
// in one allocation.
func newSummary(w int) *summary {
	flat := make([]uint64, 3*w)
	return &summary{flat: flat[:w:w], last: flat[w : 2*w : 2*w], pre: flat[2*w:]}
}

// epsilon makes s the summary of the empty path alone.
func (s *summary) epsilon() {
	s.clear()
	s.flags = flagFlat
}

func (s *summary) clear() {
	s.flags = 0
	for i := range s.flat {
		s.flat[i], s.last[i], s.pre[i] = 0, 0, 0
	}
}

// orFlags adds f to s's flags and reports growth.
func (s *summary) orFlags(f uint8) bool {
	grew := s.flags|f != s.flags
	s.flags |= f
	return grew
}

// orStep adds to dst the paths of src extended by one event ev (of letter
// l in the summaries' numbering, if an access) and reports whether dst
// grew. dst may be src (a self-loop).
func orStep(dst, src *summary, ev model.Event, l Letter) bool {
	grew := false
	switch {
	case ev.Op.IsAccess():
		if src.flags&flagFlat != 0 {
			grew = dst.orFlags(flagFlat)
			grew = dst.flat.Or(src.flat) || grew
			grew = addGrew(dst.flat, l) || grew
		}
		if src.flags&flagCross != 0 {
			grew = dst.orFlags(flagCross) || grew
			grew = dst.pre.Or(src.pre) || grew
			grew = dst.last.Or(src.last) || grew
			grew = addGrew(dst.last, l) || grew
		}
	case ev.Op == model.OpBegin || ev.Op == model.OpEnd:
		// Every path becomes crossing, with nothing after its new last
		// boundary and everything it had before it.
		if src.flags != 0 {
			grew = dst.orFlags(flagCross)
			grew = dst.pre.Or(src.flat) || grew
			grew = dst.pre.Or(src.last) || grew
			grew = dst.pre.Or(src.pre) || grew
		}
	default: // skip, lock, fork, join: letters and boundaries unchanged
		grew = orSummary(dst, src)
	}
	return grew
}

// orSummary adds src's paths to dst.
func orSummary(dst, src *summary) bool {
	grew := dst.orFlags(src.flags)
	grew = dst.flat.Or(src.flat) || grew
	grew = dst.last.Or(src.last) || grew
	return dst.pre.Or(src.pre) || grew
}

// orConcat adds to dst the concatenations a·b of a path of a with a path of
// b. dst must be neither a nor b.
func orConcat(dst, a, b *summary) bool {
	grew := false
	af, ac := a.flags&flagFlat != 0, a.flags&flagCross != 0
	bf, bc := b.flags&flagFlat != 0, b.flags&flagCross != 0
	if af && bf {
		grew = orFlatFlat(dst, a, b)
	}
	if af && bc {
		grew = orFlatCross(dst, a, b) || grew
	}
	if ac && bf {
		grew = orCrossFlat(dst, a, b) || grew
	}
	if ac && bc {
		grew = orCrossCross(dst, a, b) || grew
	}
	return grew
}

// orFlatFlat is orConcat's flat · flat, which is flat.
func orFlatFlat(dst, a, b *summary) bool {
	grew := dst.orFlags(flagFlat)
	grew = dst.flat.Or(a.flat) || grew
	return dst.flat.Or(b.flat) || grew
}

// orFlatCross is orConcat's flat · crossing: a lies before b's last
// boundary.
func orFlatCross(dst, a, b *summary) bool {
	grew := dst.orFlags(flagCross)
	grew = dst.pre.Or(a.flat) || grew
	grew = dst.pre.Or(b.pre) || grew
	return dst.last.Or(b.last) || grew
}

// orCrossFlat is orConcat's crossing · flat: b extends a's last segment.
func orCrossFlat(dst, a, b *summary) bool {
	grew := dst.orFlags(flagCross)
	grew = dst.pre.Or(a.pre) || grew
	grew = dst.last.Or(a.last) || grew
	return dst.last.Or(b.flat) || grew
}

// orCrossCross is orConcat's crossing · crossing: all of a lies before b's
// last boundary.
func orCrossCross(dst, a, b *summary) bool {
	grew := dst.orFlags(flagCross)
	grew = dst.pre.Or(a.pre) || grew
	grew = dst.pre.Or(a.last) || grew
	grew = dst.pre.Or(b.pre) || grew
	return dst.last.Or(b.last) || grew
}

// addGrew adds l to s and reports whether it was new.
func addGrew(s Set, l Letter) bool {
	if s.Has(l) {
		return false
	}
	s.Add(l)
	return true
}
