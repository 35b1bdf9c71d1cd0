package tracereport

import (
	"encoding/binary"

	"github.com/conc-dev/conc/monitor"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// violationSpool holds the monitor's violations, as they are found, for
// the text and DOT output, which only groups them: as varints of the
// lines' differences (a few bytes an event, no pointers for the garbage
// collector to scan) instead of a million structs with slices of their
// own. It also marks the lines that the cycles name, for the second
// reading of the trace (resolveSites).
type violationSpool struct {
	buf   []byte
	lines lineSet
}

// add is monitor.TraceOptions.OnViolation: v is appended and let go.
func (s *violationSpool) add(v *monitor.TraceViolation) {
	s.lines.add(v.Out)
	s.lines.add(v.In)
	b := binary.AppendUvarint(s.buf, uint64(v.Thread))
	b = binary.AppendUvarint(b, uint64(v.Begin))
	end := uint64(0) // open (End -1)
	if v.End >= 0 {
		end = uint64(v.End - v.Begin + 1)
	}
	b = binary.AppendUvarint(b, end)
	b = binary.AppendUvarint(b, uint64(v.Out-v.Begin))
	b = binary.AppendVarint(b, v.In-v.Begin) // In is 0 or in v
	b = binary.AppendUvarint(b, uint64(v.Elided))
	b = binary.AppendUvarint(b, uint64(v.ElidedAt))
	b = binary.AppendUvarint(b, uint64(len(v.Cycle)))
	prev := v.Begin
	for _, c := range v.Cycle {
		s.lines.add(c.Line)
		b = binary.AppendUvarint(b, uint64(c.Thread))
		b = binary.AppendVarint(b, c.Line-prev)
		b = binary.AppendUvarint(b, uint64(c.Line-c.Begin))
		prev = c.Line
	}
	s.buf = b
}

// each decodes the violations in the order they were added into one
// reused report.Violation, named by threads (the monitor's reader's).
func (s *violationSpool) each(threads *trace.Table, f func(v *report.Violation)) {
	var v report.Violation
	var end int
	b := s.buf
	next := func() uint64 {
		x, k := binary.Uvarint(b)
		b = b[k:]
		return x
	}
	signed := func() int64 {
		x, k := binary.Varint(b)
		b = b[k:]
		return x
	}
	for len(b) > 0 {
		v.Thread = threads.Name(int32(next()))
		v.Begin = int(next())
		v.End = nil
		if e := next(); e > 0 {
			end = v.Begin + int(e) - 1
			v.End = &end
		}
		v.Out = v.Begin + int(next())
		v.In = v.Begin + int(signed())
		v.Elided, v.ElidedAt = int(next()), int(next())
		v.Cycle = v.Cycle[:0]
		prev := v.Begin
		for n := next(); n > 0; n-- {
			t := threads.Name(int32(next()))
			line := prev + int(signed())
			v.Cycle = append(v.Cycle, report.TraceStep{Thread: t, Line: line, Begin: line - int(next())})
			prev = line
		}
		f(&v)
	}
}
