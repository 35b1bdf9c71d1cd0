package trace

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Event is one event of a trace after normalisation. Target indexes the
// Reader's Vars table for read/write, Locks for acq/rel and Threads for
// fork/join; it is -1 for begin and end. Loc indexes Locs, -1 when the line
// has no location. Line is the 1-based line of the trace it came from.
type Event struct {
	Thread int32
	Op     model.Op
	Target int32
	Loc    int32
	Line   int64
}

// OpName is STD's spelling of each op: begin and end stand alone, the
// others come before their argument in parentheses. The last six are
// docs/spec.md §3's extension, read only under Options.Orderings.
var OpName = [...]string{model.OpBegin: "begin", model.OpEnd: "end", model.OpRead: "r", model.OpWrite: "w",
	model.OpAcquire: "acq", model.OpRelease: "rel", model.OpFork: "fork", model.OpJoin: "join",
	model.OpReadAcquire: "racq", model.OpReadRelease: "rrel", model.OpPost: "post", model.OpWait: "wait",
	model.OpGive: "give", model.OpTake: "take"}

// smallMax bounds the decimal names interned through Table's array fast
// path (RoadRunner thread ids and RAPID location ids are small integers).
const smallMax = 1 << 16

// Table interns names into dense ids 0, 1, 2, ... in first-seen order.
type Table struct {
	names []string
	index []hashSlot // open addressing over names (table_hash.go)
	small []int32    // small[n] = id+1 of the decimal name n (no leading zero)
	odd   bool       // a name has a '|', a newline or a '\r' (only Intern can add those), or its key is a short name's (hashSlot)
}

// Len is the number of names interned so far.
func (t *Table) Len() int { return len(t.names) }

// Name is the name of id; it panics on an id the table never handed out
// (a programmer error, like an index out of range).
func (t *Table) Name(id int32) string { return t.names[id] }

// Names returns a copy of the names, indexed by id.
func (t *Table) Names() []string { return append([]string(nil), t.names...) }

// Lookup finds the id of a name.
func (t *Table) Lookup(name string) (int32, bool) {
	id := t.find([]byte(name), keyOf([]byte(name)))
	return id, id >= 0
}

// Intern returns the id of name, adding it if it is new.
func (t *Table) Intern(name string) int32 { return t.intern([]byte(name)) }

// intern is how the reader interns locations and thread names (and
// Intern any name): decimal names go through an array, the others through
// the hash index, which does not allocate for known names. Variables and
// locks come in with the key the scanner computed (internKey).
func (t *Table) intern(b []byte) int32 {
	if id, ok := t.lookupDecimal(b); ok {
		return id
	}
	return t.internKey(b, keyOf(b))
}

// lookupDecimal finds a known small decimal name in the array.
func (t *Table) lookupDecimal(b []byte) (int32, bool) {
	n, small := decimal(b)
	if small && n < len(t.small) && t.small[n] != 0 {
		return t.small[n] - 1, true
	}
	return 0, false
}

// internKey is intern for a name whose key k the scanner already
// computed: it finds b through the hash index, adding it if it is new.
func (t *Table) internKey(b []byte, k nameKey) int32 {
	if id := t.find(b, k); id >= 0 {
		return id
	}
	id := t.add(string(b), k)
	if n, small := decimal(b); small {
		for len(t.small) <= n {
			t.small = append(t.small, 0)
		}
		t.small[n] = id + 1
	}
	return id
}

// decimal parses b as a small decimal number without leading zeros.
func decimal(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 5 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n < smallMax
}

// Error is a bad line of a trace: File:Line: Msg.
type Error struct {
	File string
	Line int64
	Msg  string
	// cause is the damage of a compressed stream behind the error, if any.
	cause error
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Unwrap is the damage of a compressed stream that the error reports.
func (e *Error) Unwrap() error { return e.cause }

// Stats counts what the Reader did.
type Stats struct {
	Lines  int64 // lines read, blank ones included
	Events int64 // events handed out
	// Skipped counts the bad lines skipped (Options.Lenient) by kind, and
	// FirstSkipped is the first one's line (0: none).
	Skipped      [NumSkips]int64
	FirstSkipped int64
	Reentrant    int64 // re-entrant acq/rel (and racq/rrel) pairs dropped
	Nested       int64 // inner begin/end pairs dropped
}

// SkippedLines is the number of bad lines skipped, of every kind.
func (s Stats) SkippedLines() int64 {
	n := int64(0)
	for _, c := range s.Skipped {
		n += c
	}
	return n
}
