package merged

import (
	"encoding/json"
	"io"

	"github.com/conc-dev/conc/corpus"
)

// jsonReport is the report's JSON (docs/spec.md §5, "Several traces").
type jsonReport struct {
	Verdict  string         `json:"verdict"`
	Command  string         `json:"command"`
	Flags    string         `json:"flags,omitempty"`
	Verdicts map[string]int `json:"verdicts"`
	Traces   []corpus.Trace `json:"traces"`
	Groups   []jsonGroup    `json:"groups"`
	Stats    jsonStats      `json:"stats"`
}

// jsonGroup is a group with its number, as the text numbers it.
type jsonGroup struct {
	Number int `json:"group"`
	corpus.Group
}

type jsonStats struct {
	Traces int   `json:"traces"`
	Events int64 `json:"events"`
}

// WriteJSON writes s as one indented JSON object: the worst verdict, the
// command and its flags, the traces by verdict, the verdict table (a row
// per trace, by name), the groups in the text's order, and the totals.
func WriteJSON(w io.Writer, s *corpus.Summary) error {
	r := jsonReport{Verdict: s.Verdict(), Command: s.Command, Flags: s.Flags, Verdicts: map[string]int{},
		Traces: s.Traces, Groups: []jsonGroup{}, Stats: jsonStats{len(s.Traces), events(s)}}
	for k, n := range tally(s) {
		if n > 0 {
			r.Verdicts[corpus.Verdicts[k]] = n
		}
	}
	for i, g := range ordered(s) {
		r.Groups = append(r.Groups, jsonGroup{i + 1, g})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
