package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// A monitor report on a long trace can name a million violations, and
// encoding/json builds its whole output in memory: 0.8 GB of text for
// jgf-sor, and several times that while the buffer grows. So the report
// is encoded without its violations, and they are written into place one
// at a time, byte for byte as encoding/json would have written them
// (TestJSONViolationsMatchEncoder).

// writeViolationsJSON is WriteJSON for a report with violations.
func writeViolationsJSON(w io.Writer, r *Report) error {
	shell := *r
	shell.Violations = nil
	var head bytes.Buffer
	if err := encodeJSON(&head, &shell); err != nil {
		return err
	}
	b := head.Bytes()
	// The violations go just before stats, the last member of the object.
	at := bytes.LastIndex(b, []byte("\n  \"stats\": "))
	if at < 0 {
		return fmt.Errorf("report: internal error: no stats in the JSON encoding")
	}
	bw := bufio.NewWriter(w)
	bw.Write(b[:at+1])
	bw.WriteString(`  "violations": [`)
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	for i := range r.Violations {
		if i > 0 {
			bw.WriteByte(',')
		}
		one.Reset()
		if err := enc.Encode(&r.Violations[i]); err != nil {
			return err
		}
		bw.WriteString("\n    ")
		bw.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
	}
	bw.WriteString("\n  ],")
	bw.Write(b[at:])
	return bw.Flush()
}
