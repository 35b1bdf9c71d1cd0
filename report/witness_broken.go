package report

import (
	"bufio"
	"fmt"

	"github.com/conc-dev/conc/model"
)

// WitnessBroken is a transaction of its cycle that the run breaks
// by itself (docs/spec.md §1), with the path that breaks it, in the words
// of the cycle's conflicts. Txn indexes Witness.Txns.
type WitnessBroken struct {
	Txn  int        `json:"txn"`
	Path []Conflict `json:"path"`
	// Signature is what the programmer would fix, as conc monitor's
	// groups name it (BrokenTxn.Signature): where the path leaves the
	// transaction, the event that interrupts it, and where it comes back,
	// each as op@LOC (or op and target); "" when not known.
	Signature string `json:"signature,omitempty"`
}

// SetBroken records which of the cycle's transactions run breaks by
// itself: paths are the paths that break the run's broken transactions
// (each a list of conflicts by run index, the first leaving the broken
// transaction, the last coming back), of which those of the cycle's
// transactions are kept. run is the witness's run over p.
func (w *Witness) SetBroken(n Naming, p *model.Program, run []model.Step, paths [][]model.Conflict) {
	broken := []WitnessBroken{}
	w.Broken = &broken
	for _, path := range paths {
		k := w.cycleTxnOf(path[0].From)
		if k < 0 {
			continue
		}
		b := WitnessBroken{Txn: k}
		for _, c := range path {
			b.Path = append(b.Path, explain(n, p, run, c))
		}
		broken = append(broken, b)
	}
}

// cycleTxnOf is the index in Txns of the cycle's transaction that holds run
// event i, -1 if none.
func (w *Witness) cycleTxnOf(i int) int {
	for k, t := range w.Txns {
		if t.ID < 0 {
			continue // an event outside any transaction: never broken
		}
		for _, e := range t.Events {
			if e == i {
				return k
			}
		}
	}
	return -1
}

// writeBroken says which transactions of the cycle the run breaks by
// itself, each with its path, or that none is (a joint violation).
func writeBroken(b *bufio.Writer, n Naming, w *Witness, lines bool) {
	if w.Broken == nil {
		return
	}
	if len(*w.Broken) == 0 {
		b.WriteString("no transaction of the cycle is broken by itself in this run: together they cannot all be atomic (a joint violation)\n")
		return
	}
	for _, x := range *w.Broken {
		t := w.Txns[x.Txn]
		name := txnName(n, t)
		if lines {
			name += t.lines()
		}
		fmt.Fprintf(b, "%s is broken by itself in this run: the path leaves it and comes back:\n", name)
		for _, c := range x.Path {
			b.WriteString("  " + c.Words + "\n")
		}
		if x.Signature != "" {
			b.WriteString("  signature: " + x.Signature + "\n")
		}
	}
}
