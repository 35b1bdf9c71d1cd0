package report

import (
	"bufio"
	"bytes"
	"io"
)

// WriteCycle prints r's witness's conflict cycle as conc predict's text
// does (its transactions with their trace lines, then one conflict a
// line), every line after indent: conc predict --all shows each group's
// witness this way, without its run.
func WriteCycle(w io.Writer, r *Report, indent string) error {
	if r.Witness == nil {
		return nil
	}
	var buf bytes.Buffer
	b := bufio.NewWriter(&buf)
	writeCycle(b, r.naming, r.Witness, true)
	writeBroken(b, r.naming, r.Witness, true)
	if err := b.Flush(); err != nil {
		return err
	}
	out := bufio.NewWriter(w)
	for line := range bytes.Lines(buf.Bytes()) {
		out.WriteString(indent)
		out.Write(line)
	}
	return out.Flush()
}
