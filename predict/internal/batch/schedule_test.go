package batch

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// TestScheduleOfBlocks: a run's longest prefix of increasing lines is the
// cut, thread by thread; after it each block of one thread's consecutive
// events is a segment from its first line to its last; the events drop
// marks (those a written witness leaves out) are passed over.
func TestScheduleOfBlocks(t *testing.T) {
	p := &model.Program{Threads: []*model.Thread{{Name: "A"}, {Name: "B"}}}
	step := func(th int32, line int64) model.Step {
		return model.Step{Thread: th, Ev: model.Event{Op: model.OpRead, Pos: model.Pos{Line: line}}}
	}
	w := &model.Witness{Run: []model.Step{step(0, 1), step(1, 4), step(0, 5), // the cut
		step(0, 2), step(0, 3), step(1, 6), step(1, 7), step(0, 8)}}
	drop := make([]bool, len(w.Run))
	drop[2] = true // line 5 left out: A's part of the cut ends at line 1
	require.Equal(t, Schedule{
		Cut:      []ScheduleCut{{Thread: "A", Through: 1}, {Thread: "B", Through: 4}},
		Segments: []ScheduleSegment{{Thread: "A", From: 2, To: 3}, {Thread: "B", From: 6, To: 7}, {Thread: "A", From: 8, To: 8}},
	}, ScheduleOf(p, w, drop))
}
