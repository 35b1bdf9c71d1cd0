package instr

import (
	"bytes"
	"sort"
)

// An edit replaces src[start:end] by text (an insertion when start ==
// end). Edits never add a line break inside the code, so every line of
// the instrumented file is the line of the same number in the original:
// compiler messages, panics and test failures point at the user's source.
type edit struct {
	start, end int
	text       string
	// suffix: the edit closes a wrapper; span and seq order the edits
	// that meet at one offset (outer wrappers open first, close last).
	suffix    bool
	spanStart int
	spanEnd   int
	seq       int
}

type editor struct {
	src   []byte
	edits []edit
	seq   int
}

// insert adds text at off.
func (e *editor) insert(off int, text string) {
	e.add(edit{start: off, end: off, text: text, spanStart: off, spanEnd: off})
}

// wrap puts pre before src[start:end] and post after it.
func (e *editor) wrap(start, end int, pre, post string) {
	e.add(edit{start: start, end: start, text: pre, spanStart: start, spanEnd: end})
	e.add(edit{start: end, end: end, text: post, suffix: true, spanStart: start, spanEnd: end})
}

// replace puts text in place of src[start:end].
func (e *editor) replace(start, end int, text string) {
	e.add(edit{start: start, end: end, text: text, spanStart: start, spanEnd: end})
}

func (e *editor) add(x edit) {
	e.seq++
	x.seq = e.seq
	e.edits = append(e.edits, x)
}

// less orders edits by offset; at one offset closers come first (inner
// before outer), then openers (outer before inner).
func less(a, b edit) bool {
	if a.start != b.start {
		return a.start < b.start
	}
	if a.suffix != b.suffix {
		return a.suffix
	}
	if a.suffix {
		if a.spanStart != b.spanStart {
			return a.spanStart > b.spanStart
		}
		return a.seq > b.seq
	}
	if a.spanEnd != b.spanEnd {
		return a.spanEnd > b.spanEnd
	}
	return a.seq < b.seq
}

// apply returns the edited source. Edits made inside a replaced range
// (their span starts in it and ends by its end) are dropped whole, both
// halves of a wrapper: the replacement was written from the original text.
func (e *editor) apply() []byte {
	var replaced []edit
	for _, x := range e.edits {
		if x.end > x.start {
			replaced = append(replaced, x)
		}
	}
	sort.SliceStable(e.edits, func(i, j int) bool { return less(e.edits[i], e.edits[j]) })
	var out bytes.Buffer
	at := 0
	for _, x := range e.edits {
		if x.start < at || inside(x, replaced) {
			continue
		}
		out.Write(e.src[at:x.start])
		out.WriteString(x.text)
		at = x.end
	}
	out.Write(e.src[at:])
	return out.Bytes()
}

// inside tells an edit whose span lies in one of the replaced ranges
// (not that replacement itself).
func inside(x edit, replaced []edit) bool {
	for _, r := range replaced {
		if r.seq != x.seq && r.start <= x.spanStart && x.spanStart < r.end && x.spanEnd <= r.end {
			return true
		}
	}
	return false
}
