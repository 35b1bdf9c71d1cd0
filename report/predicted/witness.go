package predicted

import (
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/report"
)

// Report is conc predict's report of out: the verdict over the
// projection program, and for a violation the witness with the number of
// lines --witness-out writes for it and the transactions of its cycle the
// run breaks by itself. The report shares the witness's run (millions of
// steps, for a long trace) and spells each event as it is written, so the
// caller may let the witness's paths go once it has written --witness-out.
func Report(out *predict.Outcome) (*report.Report, error) {
	rep, err := report.BuildLean(out.Program, out.Result)
	if err != nil {
		return nil, err
	}
	traceNote(rep)
	rep.TxnLines = true // the DOT's boxes name their trace lines, as the text does
	if rep.Witness != nil {
		rep.Witness.STDEvents = predict.STDEvents(out.Program, out.Result.Witness)
		setBroken(rep, out)
	}
	return rep, nil
}

// traceNote words rep's note on a program without threads as a trace's:
// the program predict builds has no threads when the trace has no events.
func traceNote(rep *report.Report) {
	if rep.Reason == report.NoThreadsNote {
		rep.Reason = report.EmptyTraceNote
	}
}
