// Package jsonout writes JSON values as conc's reports write them.
package jsonout

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without escaping <, > and & (as report's JSON:
// "<stdin>" stays readable), without the encoder's newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// NonNil is s, or an empty list for nil: JSON's [] rather than null.
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
