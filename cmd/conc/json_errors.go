package main

import (
	"encoding/json"
	"errors"

	"github.com/conc-dev/conc/lang"
)

// jsonError is one error of the input in --format json's error object
// (docs/spec.md §5), the shape of conc serve's: the position, when the
// error has one, and the reason.
type jsonError struct {
	Pos     string `json:"pos,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// writeJSONErrors writes {"errors": [...]} for err to standard output, so
// that a script reading --format json gets JSON for bad input too; the
// text stays on standard error for a person.
func writeJSONErrors(e *env, err error) {
	var list lang.ErrorList
	var out []jsonError
	if errors.As(err, &list) {
		for _, le := range list {
			j := jsonError{Message: le.Msg}
			if le.Pos.IsValid() {
				j.Pos, j.Line, j.Col = le.Pos.String(), int(le.Pos.Line), int(le.Pos.Col)
			}
			out = append(out, j)
		}
	} else {
		out = append(out, jsonError{Message: err.Error()})
	}
	b, _ := json.MarshalIndent(struct {
		Errors []jsonError `json:"errors"`
	}{out}, "", "  ")
	e.stdout.Write(append(b, '\n'))
}
