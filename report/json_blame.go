package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// writeBlameJSON is WriteJSON for conc monitor's default answer: its
// groups, broken transactions and joint violation are written one at a
// time, byte for byte as encoding/json would have written them
// (TestJSONBlameMatchesEncoder), so that a thousand paths naming a long
// variable do not all sit in memory at once (json_violations.go says why).
func writeBlameJSON(w io.Writer, r *Report) error {
	shell := *r
	shell.NonAtomicGroups, shell.NonAtomicTxns, shell.Joint = nil, nil, nil
	var head bytes.Buffer
	if err := encodeJSON(&head, &shell); err != nil {
		return err
	}
	b := head.Bytes()
	// They go just before on_cycle, which follows them in the object.
	at := bytes.Index(b, []byte("\n  \"on_cycle\": "))
	if at < 0 {
		return fmt.Errorf("report: internal error: no on_cycle in the JSON encoding")
	}
	bw := bufio.NewWriter(w)
	bw.Write(b[:at+1])
	var err error
	streamArray(bw, "non_atomic_groups", len(r.NonAtomicGroups), func(i int) any { return &r.NonAtomicGroups[i] }, &err)
	streamArray(bw, "non_atomic_transactions", len(r.NonAtomicTxns), func(i int) any { return &r.NonAtomicTxns[i] }, &err)
	streamArray(bw, "joint", len(r.Joint), func(i int) any { return &r.Joint[i] }, &err)
	if err != nil {
		return err
	}
	bw.Write(b[at+1:])
	return bw.Flush()
}

// streamArray writes the member name, an array of n elements (none when
// n is 0, as omitempty would), each encoded on its own, and a comma: the
// object goes on after it.
func streamArray(bw *bufio.Writer, name string, n int, elem func(int) any, err *error) {
	if n == 0 || *err != nil {
		return
	}
	fmt.Fprintf(bw, "  %q: [", name)
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	for i := range n {
		if i > 0 {
			bw.WriteByte(',')
		}
		one.Reset()
		if *err = enc.Encode(elem(i)); *err != nil {
			return
		}
		bw.WriteString("\n    ")
		bw.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
	}
	bw.WriteString("\n  ],\n")
}
