package batch

import (
	"fmt"
	"io"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// The threads' first edges, kept across batches: the projection of a
// prefix of the trace, read on from one pass over the spool as the batches
// need more. A batch of planned runs then copies its blocks from it
// without reading the spool again: on the 10⁶-event synthetic trace the
// batches' passes were a third of the JSON's time, and all its runs
// together need the projection of the whole trace once (1.4·10⁶ edges).
// An edge is kept as its op, target and line, 16 bytes (a model.Step is 48
// and holds a pointer the collector scans), and made a step again as it is
// copied. A cache that would outgrow cacheEdges is let go, and the batches
// read the spool each (Builder.pass), as they do for observed runs.

// cacheEdges bounds the cache (16 bytes an edge).
const cacheEdges = 1 << 22

// cachedEdge is an edge of the projection: projected's event but for its
// file, which is the trace's.
type cachedEdge struct {
	op     model.Op
	target int32
	line   int64
}

// edgeCache is the cache: proj[t] holds thread t's first edges.
type edgeCache struct {
	r        *proj.SpoolReader
	proj     [][]cachedEdge
	open     []bool
	total    int64
	dropSync bool
}

// cachedEdges returns the threads' first edges, at least need[t] of
// thread t, read on as far as that takes; false when the cache is off
// (given up, or kept for the other dropSync).
func (b *Builder) cachedEdges(need []int64, dropSync bool) ([][]cachedEdge, bool, error) {
	if b.cacheOff {
		return nil, false, nil
	}
	c := b.cache
	if c == nil {
		k := len(b.s.Threads)
		c = &edgeCache{r: b.sp.Reader(), proj: make([][]cachedEdge, k), open: make([]bool, k), dropSync: dropSync}
		b.cache = c
	}
	if c.dropSync != dropSync {
		return nil, false, nil
	}
	short := 0 // threads with fewer edges than they need
	for t, n := range need {
		if int64(len(c.proj[t])) < n {
			short++
		}
	}
	var ev trace.Event
	for short > 0 {
		if err := c.r.Next(&ev); err == io.EOF {
			return nil, false, fmt.Errorf("predict: internal error: the trace ends before a witness's edges")
		} else if err != nil {
			return nil, false, err
		}
		t := int(ev.Thread)
		before := int64(len(c.proj[t]))
		c.step(b.s, &ev)
		if before < need[t] && int64(len(c.proj[t])) >= need[t] {
			short--
		}
		if c.total > cacheEdges {
			b.DropCache()
			return nil, false, nil
		}
	}
	return c.proj, true, nil
}

// step appends one event's edges to its thread's, as EachEdge reads them.
func (c *edgeCache) step(s *proj.Summary, ev *trace.Event) {
	t := int(ev.Thread)
	evs, n := proj.Projected(ev, c.open[t], c.dropSync, model.Pos{File: s.Name, Line: ev.Line})
	for x := range n {
		c.proj[t] = append(c.proj[t], cachedEdge{op: evs[x].Op, target: evs[x].Target, line: evs[x].Pos.Line})
		switch evs[x].Op {
		case model.OpBegin:
			c.open[t] = true
		case model.OpEnd:
			c.open[t] = false
		}
	}
	c.total += int64(n)
}

// copyCached lays a planned run out from the cache's edges, as copyBlocks
// does from steps.
func (f *Run) copyCached(cached [][]cachedEdge, file string) {
	for t, bs := range f.blocks {
		for _, b := range bs {
			run := f.run[b.Slot : b.Slot+b.Last+1-b.First]
			for x, e := range cached[t][b.First : b.Last+1] {
				run[x] = model.Step{Thread: int32(t), Ev: model.Event{Op: e.op, Target: e.target, Pos: model.Pos{File: file, Line: e.line}}}
			}
		}
		f.cycleSlots(t)
	}
}
