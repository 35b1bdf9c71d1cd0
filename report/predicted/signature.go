package predicted

import (
	"context"
	"io"
	"os"
	"slices"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/trace"
)

// SignatureLines are the trace lines whose code locations the broken
// transactions' signatures name (Sign).
func SignatureLines(rep *report.Report, out *predict.Outcome) []int64 {
	var lines []int64
	for _, steps := range signatureSteps(rep, out) {
		for _, s := range steps {
			lines = append(lines, int64(s.Ev.Pos.Line))
		}
	}
	return lines
}

// Sign sets each broken transaction's signature in rep, the report of
// out, from locs, the code locations (STD's LOC) of the trace's lines: a
// line without one is named by its op and target, as conc monitor names
// it.
func Sign(rep *report.Report, out *predict.Outcome, locs map[int64]string) {
	for i, steps := range signatureSteps(rep, out) {
		(*rep.Witness.Broken)[i].Signature = site(out.Program, steps[0], locs) + " | " +
			site(out.Program, steps[1], locs) + " | " + site(out.Program, steps[2], locs)
	}
}

// signatureSteps are, per broken transaction of rep (in order), the run
// events its signature names: where its path leaves it, the event that
// interrupts it, and where the path comes back.
func signatureSteps(rep *report.Report, out *predict.Outcome) [][3]model.Step {
	if rep.Witness == nil || rep.Witness.Broken == nil || out.Result.Witness == nil {
		return nil
	}
	run := out.Result.Witness.Run
	var steps [][3]model.Step
	for _, b := range *rep.Witness.Broken {
		p := b.Path
		steps = append(steps, [3]model.Step{run[p[0].From], run[p[len(p)-1].From], run[p[len(p)-1].To]})
	}
	return steps
}

// site is s as a signature names it: op@LOC, or op and target.
func site(p *model.Program, s model.Step, locs map[int64]string) string {
	op := trace.OpName[s.Ev.Op]
	if loc := locs[int64(s.Ev.Pos.Line)]; loc != "" {
		return op + "@" + loc
	}
	if name := p.TargetName(s.Ev); name != "" {
		return op + " " + name
	}
	return op
}

// Locations reads the code locations of lines (sorted or not) from src, the
// trace read a second time (trace.LinesAt): a line without a LOC has
// none in the map.
func Locations(ctx context.Context, src io.Reader, name string, lines []int64) (map[int64]string, error) {
	want := map[int64]bool{}
	for _, l := range lines {
		want[l] = true
	}
	sorted := make([]int64, 0, len(want))
	for l := range want {
		sorted = append(sorted, l)
	}
	slices.Sort(sorted)
	locs := map[int64]string{}
	k := 0
	next := func(after int64) int64 {
		for k < len(sorted) && sorted[k] <= after {
			k++
		}
		if k == len(sorted) {
			return 0
		}
		return sorted[k]
	}
	err := trace.LinesAt(ctx, src, name, next, func(line int64, f trace.Fields) {
		if len(f.Loc) > 0 {
			locs[line] = string(f.Loc)
		}
	})
	return locs, err
}

// SignFrom signs rep (Sign) with the code locations read from the trace
// at path a second time; standard input ("-") or a pipe (`<(cmd)`) is
// read once, and its events are named by op and target instead. The
// error is the second reading's: the trace went away or bad after the
// first.
func SignFrom(rep *report.Report, out *predict.Outcome, path string) error {
	lines := SignatureLines(rep, out)
	if len(lines) == 0 {
		return nil
	}
	var locs map[int64]string
	if st, err := os.Stat(path); path != "-" && err == nil && st.Mode().IsRegular() {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if locs, err = Locations(context.Background(), f, path, lines); err != nil {
			return err
		}
	}
	Sign(rep, out, locs)
	return nil
}
