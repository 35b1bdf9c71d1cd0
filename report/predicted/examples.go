package predicted

import (
	"bufio"
	"bytes"
	"context"

	"github.com/conc-dev/conc/internal/jsonout"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/report"
)

// Example is a group of a predict --all answer as a corpus report keeps
// it (package corpus): the group, the lines the text prints under its
// signature line (its witness's length and finder, then the witness's
// cycle), and the group's object as --all's JSON has it, without its
// number.
type Example struct {
	Group *all.Group
	Text  []byte
	JSON  []byte
}

// Examples builds the groups' witnesses in order, as WriteAllJSON does
// (until the deadline: a.Incomplete then says which were not built), and
// calls f with each group whose witness replays.
func Examples(ctx context.Context, a *all.Outcome, f func(Example) error) error {
	_, err := eachWitness(ctx, a, func(k int, out *predict.Outcome) (bool, error) {
		jg, err := groupJSON(a, k, out)
		if err != nil {
			return false, err
		}
		js, err := jsonout.Marshal(jg)
		if err != nil {
			return false, err
		}
		rep, err := report.BuildLean(out.Program, out.Result)
		if err != nil {
			return false, err
		}
		var text bytes.Buffer
		b := bufio.NewWriter(&text)
		if err := writeWitness(b, &a.Groups[k], rep, out); err != nil {
			return false, err
		}
		b.Flush()
		return true, f(Example{Group: &a.Groups[k], Text: text.Bytes(), JSON: js})
	})
	return err
}
