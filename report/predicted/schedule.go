package predicted

import "github.com/conc-dev/conc/predict/all"

// Schedule is a group's witness run as parts of the trace in --all's JSON
// (all.Schedule; docs/spec.md §5): a few words a thread and a segment
// where the run spelled out would be 10⁵ events. Exported for the
// readers of that JSON.
type Schedule struct {
	Cut      []ScheduleCut     `json:"cut"`
	Segments []ScheduleSegment `json:"segments"`
}

// ScheduleCut is a thread's part of the schedule's observed prefix: its
// events up to line Through.
type ScheduleCut struct {
	Thread  string `json:"thread"`
	Through int64  `json:"through_line"`
}

// ScheduleSegment is thread Thread's events from line From to line To.
type ScheduleSegment struct {
	Thread string `json:"thread"`
	From   int64  `json:"from_line"`
	To     int64  `json:"to_line"`
}

// scheduleOf spells out a witness's schedule.
func scheduleOf(sch all.Schedule) Schedule {
	js := Schedule{Cut: []ScheduleCut{}, Segments: []ScheduleSegment{}}
	for _, c := range sch.Cut {
		js.Cut = append(js.Cut, ScheduleCut{c.Thread, c.Through})
	}
	for _, sg := range sch.Segments {
		js.Segments = append(js.Segments, ScheduleSegment{sg.Thread, sg.From, sg.To})
	}
	return js
}
