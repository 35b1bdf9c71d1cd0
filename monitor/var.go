package monitor

import "github.com/conc-dev/conc/monitor/internal/txn"

// readVar is v.Read, v being variable id's record, with v's read index
// once it has many reads, counting the reads Find looks at.
func (m *TraceMonitor) readVar(v *txn.Var, id, t int32, here txn.Src) {
	m.findScans += int64(v.Read(t, here, m.readIndexOf(id, v)))
}

// writeVar is v.Write, v being variable id's record.
func (m *TraceMonitor) writeVar(v *txn.Var, id, t int32, here txn.Src) {
	v.Write(t, here)
	m.reindex(id, v)
}

// readIndexOf is v's read index (v being variable id's record), or nil
// while v has few reads: then an index is dropped, its positions being
// soon out of date.
func (m *TraceMonitor) readIndexOf(id int32, v *txn.Var) txn.ReadIndex {
	if len(v.Rest) < m.readIdxMin {
		if len(m.readIdx) > 0 {
			delete(m.readIdx, id)
		}
		return nil
	}
	if m.readIdx == nil {
		m.readIdx = map[int32]txn.ReadIndex{}
	}
	ix := m.readIdx[id]
	if ix == nil {
		ix = make(txn.ReadIndex, 2*len(v.Rest))
		m.readIdx[id] = ix
	}
	if len(ix) != len(v.Rest) {
		ix.Rebuild(v.Rest)
	}
	return ix
}

// reindex brings variable id's read index, if any, in step with rest after
// its reads were compacted or cleared.
func (m *TraceMonitor) reindex(id int32, v *txn.Var) {
	if len(m.readIdx) == 0 {
		return
	}
	if ix := m.readIdx[id]; ix != nil {
		if len(v.Rest) < m.readIdxMin {
			delete(m.readIdx, id)
			return
		}
		ix.Rebuild(v.Rest)
	}
}
