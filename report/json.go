package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/conc-dev/conc/model"
)

// WriteJSON prints r as docs/spec.md §5's JSON object, indented, with a final newline.
// The witness (for a violation), reason (for unknown, or a note), first and
// violations (conc monitor) are left out when empty.
//
// encoding/json builds its whole output in memory, which for a witness of
// millions of events is gigabytes; so the report is encoded with an empty
// run, and the run is written into that hole event by event, byte for byte
// as encoding/json would have written it (TestJSONStreamMatchesEncoder).
func WriteJSON(w io.Writer, r *Report) error {
	if r.Witness == nil {
		return encodeReport(w, r)
	}
	shell, wit := *r, *r.Witness
	wit.Run, wit.lean = []Event{}, nil
	shell.Witness = &wit
	var head bytes.Buffer
	if err := encodeReport(&head, &shell); err != nil {
		return err
	}
	b := head.Bytes()
	const hole = `"run": []`
	at := bytes.Index(b, []byte(hole))
	if at < 0 {
		return fmt.Errorf("report: internal error: no witness run in the JSON encoding")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(b[:at])
	indent := b[bytes.LastIndexByte(b[:at], '\n')+1 : at]
	writeRunJSON(bw, r.Witness, string(indent))
	bw.Write(b[at+len(hole):])
	return bw.Flush()
}

// encodeReport is r as encoding/json writes it; a monitor's violations are
// written one at a time (json_violations.go).
func encodeReport(w io.Writer, r *Report) error {
	if len(r.Order) > 0 {
		return writeViewJSON(w, r)
	}
	if len(r.Violations) > 0 {
		return writeViolationsJSON(w, r)
	}
	if r.OnCycle != nil {
		return writeBlameJSON(w, r)
	}
	return encodeJSON(w, r)
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeRunJSON writes the witness's "run" member at the given indentation.
func writeRunJSON(b *bufio.Writer, w *Witness, indent string) {
	n := w.Len()
	switch {
	case n == 0 && w.lean == nil && w.Run == nil:
		b.WriteString(`"run": null`)
		return
	case n == 0:
		b.WriteString(`"run": []`)
		return
	}
	q := newJSONQuoter()
	open := "\n" + indent + "  {\n" + indent + `    "thread": `
	field := func(name string) string { return ",\n" + indent + `    "` + name + `": ` }
	op, target, pos := field("op"), field("target"), field("pos")
	close := "\n" + indent + "  }"
	var buf []byte
	b.WriteString(`"run": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		e := w.jsonEvent(q, i)
		buf = append(buf[:0], open...)
		buf = append(buf, e.thread...)
		buf = append(append(buf, op...), e.op...)
		if e.target != nil {
			buf = append(append(buf, target...), e.target...)
		}
		if e.pos.valid {
			buf = append(append(buf, pos...), e.pos.file...)
			buf = append(appendPosTail(buf, e.pos.line, e.pos.col), '"')
		} else if e.posText != "" {
			buf = append(append(buf, pos...), q.quote(e.posText)...)
		}
		buf = append(buf, close...)
		b.Write(buf)
	}
	b.WriteString("\n" + indent + "]")
}

// jsonEvent is one run event's JSON members, quoted: target is nil when
// left out; a position is the quoted file without its closing quote and the
// numbers (a lean run) or text to quote (a spelled-out run).
type jsonEvent struct {
	thread, op, target []byte
	pos                jsonPos
	posText            string
}

type jsonPos struct {
	valid bool
	file  []byte
	line  int64
	col   int32
}

// jsonEvent spells event i for JSON.
func (w *Witness) jsonEvent(q *jsonQuoter, i int) jsonEvent {
	if w.lean == nil {
		e := w.Run[i]
		je := jsonEvent{thread: q.quote(e.Thread), op: q.quote(e.Op), posText: e.Pos}
		if e.Target != "" {
			je.target = q.quote(e.Target)
		}
		return je
	}
	l := w.lean
	s := l.run[i]
	je := jsonEvent{thread: q.name(&q.threads, len(l.p.Threads), int(s.Thread), l.p.Threads[s.Thread].Name),
		op: q.name(&q.ops, int(model.OpTake)+1, int(s.Ev.Op), s.Ev.Op.String())}
	if tgt := l.p.TargetName(s.Ev); tgt != "" { // Build checked every target
		je.target = q.target(l.p, s.Ev, tgt)
	}
	if p := s.Ev.Pos; p.IsValid() {
		je.pos = jsonPos{valid: true, file: q.file(p.File), line: p.Line, col: p.Col}
	}
	return je
}

// appendPosTail appends the numbers of Pos.String() after its file.
func appendPosTail(b []byte, line int64, col int32) []byte {
	b = strconv.AppendInt(append(b, ':'), line, 10)
	if col != 0 {
		b = strconv.AppendInt(append(b, ':'), int64(col), 10)
	}
	return b
}

// jsonQuoter quotes strings as encoding/json does (without HTML escapes),
// each name once.
type jsonQuoter struct {
	buf                       bytes.Buffer
	enc                       *json.Encoder
	byText                    map[string][]byte
	threads, ops, vars, locks [][]byte // quoted names by index; threads also for fork and join
	msgs                      [][]byte
	lastFile                  string
	lastQuoted                []byte
}

func newJSONQuoter() *jsonQuoter {
	q := &jsonQuoter{byText: map[string][]byte{}}
	q.enc = json.NewEncoder(&q.buf)
	q.enc.SetEscapeHTML(false)
	return q
}

// quote is s as a JSON string.
func (q *jsonQuoter) quote(s string) []byte {
	if b, ok := q.byText[s]; ok {
		return b
	}
	q.buf.Reset()
	q.enc.Encode(s) // a string always encodes
	b := bytes.Clone(bytes.TrimSuffix(q.buf.Bytes(), []byte("\n")))
	if len(q.byText) < 1<<16 { // names repeat; positions of a spelled-out run do not
		q.byText[s] = b
	}
	return b
}

// name is name, index i of a table of n names, quoted once.
func (q *jsonQuoter) name(table *[][]byte, n, i int, name string) []byte {
	if *table == nil {
		*table = make([][]byte, n)
	}
	if (*table)[i] == nil {
		(*table)[i] = q.quote(name)
	}
	return (*table)[i]
}

// target is the quoted target name tgt of e.
func (q *jsonQuoter) target(p *model.Program, e model.Event, tgt string) []byte {
	switch e.Op {
	case model.OpRead, model.OpWrite:
		return q.name(&q.vars, len(p.Vars), int(e.Target), tgt)
	case model.OpAcquire, model.OpRelease, model.OpReadAcquire, model.OpReadRelease:
		return q.name(&q.locks, len(p.Locks), int(e.Target), tgt)
	case model.OpPost, model.OpWait, model.OpGive, model.OpTake:
		return q.name(&q.msgs, len(p.Msgs), int(e.Target), tgt)
	}
	return q.name(&q.threads, len(p.Threads), int(e.Target), tgt)
}

// file is the quoted file name without its closing quote: a position
// continues it with its numbers, which JSON does not escape.
func (q *jsonQuoter) file(f string) []byte {
	if q.lastQuoted == nil || f != q.lastFile {
		b := q.quote(f)
		q.lastFile, q.lastQuoted = f, b[:len(b)-1:len(b)-1]
	}
	return q.lastQuoted
}
