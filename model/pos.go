package model

import "fmt"

// Pos is a source position: a .conc file position, or a trace line (Col 0).
type Pos struct {
	File string
	Line int64
	Col  int32
}

// IsValid reports whether p names a place.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders p as file:line:col (file:line for trace lines).
func (p Pos) String() string {
	switch {
	case !p.IsValid():
		return "-"
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
}
