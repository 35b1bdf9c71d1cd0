package report

import (
	"encoding/json"
	"io"
)

// WriteJSON prints r as SPEC §5's JSON object, indented, with a final newline.
// The witness (for a violation), reason (for unknown, or a note), first and
// violations (conc monitor) are left out when empty.
func WriteJSON(w io.Writer, r *Report) error {
	if len(r.Violations) > 0 {
		return writeViolationsJSON(w, r)
	}
	return encodeJSON(w, r)
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
