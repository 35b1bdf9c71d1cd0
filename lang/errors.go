package lang

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/conc-dev/conc/model"
)

// maxErrors caps ErrorList.Error, as go/scanner does: past it, one line says
// how many more there are.
const maxErrors = 10

// Error is one static error: where, and a one-line reason.
type Error struct {
	Pos model.Pos
	Msg string
}

// Error renders e as file:line:col: msg.
func (e *Error) Error() string {
	if e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is every static error of one source, sorted by position. Like
// go/scanner.ErrorList, it prints one error a line, capped at ten.
type ErrorList []*Error

// add appends an error at pos.
func (l *ErrorList) add(pos model.Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Len, Less and Swap let callers sort a list with sort.Sort.
func (l ErrorList) Len() int           { return len(l) }
func (l ErrorList) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool { return compareErrors(l[i], l[j]) < 0 }

func compareErrors(a, b *Error) int {
	return cmp.Or(
		cmp.Compare(a.Pos.File, b.Pos.File),
		cmp.Compare(a.Pos.Line, b.Pos.Line),
		cmp.Compare(a.Pos.Col, b.Pos.Col),
		cmp.Compare(a.Msg, b.Msg),
	)
}

// Sort sorts the list by position, then message.
func (l ErrorList) Sort() { slices.SortFunc(l, compareErrors) }

// RemoveMultiples sorts the list and drops exact duplicates: an inlined
// procedure or an unrolled repeat reports the same mistake many times.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	*l = slices.CompactFunc(*l, func(a, b *Error) bool { return *a == *b })
}

// Error lists the errors one a line, at most ten, then "and N more errors".
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == maxErrors {
			fmt.Fprintf(&b, "\nand %d more errors", len(l)-maxErrors)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
