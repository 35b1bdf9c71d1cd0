package report

import (
	"strconv"
	"strings"

	"github.com/conc-dev/conc/model"
)

// A position without a column is a trace's line (the STD reader gives
// none), and a report holds one trace, so the text names it "line N", as
// conc monitor does, rather than repeat the trace's path on every event.
// A program's positions keep their file, line and column. (A file name
// that itself ends in ":N" keeps its positions whole, so that a position
// read back from its string is judged the same.)

// textPos is p as the text names it.
func textPos(p model.Pos) string {
	if isTraceLine(p.File, p.Col) {
		return "line " + strconv.Itoa(int(p.Line))
	}
	return p.String()
}

// appendTextPos appends textPos(p) for a valid position, nothing otherwise.
func appendTextPos(b []byte, p model.Pos) []byte {
	switch {
	case !p.IsValid():
		return b
	case isTraceLine(p.File, p.Col):
		return strconv.AppendInt(append(b, "line "...), int64(p.Line), 10)
	}
	return appendPos(b, p)
}

// textPosOf is textPos of a position spelled by Pos.String.
func textPosOf(s string) string {
	file, line, ok := cutNumber(s)
	if !ok || !isTraceLine(file, 0) {
		return s
	}
	return "line " + line
}

func isTraceLine(file string, col int32) bool {
	_, _, endsInNumber := cutNumber(file)
	return col == 0 && !endsInNumber
}

// cutNumber splits "REST:N" into REST and N.
func cutNumber(s string) (rest, n string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 || i == len(s)-1 || strings.Trim(s[i+1:], "0123456789") != "" {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
