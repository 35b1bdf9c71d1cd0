package profiles

import "github.com/conc-dev/conc/model"

// extractRegular is the fixpoint of the dataflow in extract.go for an
// automaton with branches and loops. States are visited in reverse postorder
// of a depth-first search from Init, so on an acyclic automaton every state is
// processed once, after all its predecessors; a back edge that grows its
// target's sets marks it dirty for another sweep. Every growth adds a letter
// to a set, so a state is processed at most 4v+1 times in total.
//
// Invariant: after processing q, every successor's sets include the transfer
// of q's current sets, and the collector holds the profiles of q's out-edges
// for those sets; q is dirty whenever its sets grew since.
// It ends with the context's cause when c's context ends.
func extractRegular(a *model.Automaton, c *collector) error {
	order := reversePostorder(a)
	for _, q := range order {
		c.edges += len(a.Out[q])
	}
	w := c.w
	cur := make([]uint64, a.NumStates()*w)
	bef := make([]uint64, a.NumStates()*w)
	dirty := make([]bool, a.NumStates())
	reached := make([]bool, a.NumStates())
	dirty[a.Init], reached[a.Init] = true, true
	for pending := 1; pending > 0; {
		for i, q := range order {
			if i&tickMask == tickMask {
				if err := c.ended(); err != nil {
					return err
				}
			}
			if !dirty[q] {
				continue
			}
			dirty[q] = false
			pending--
			qc, qb := cur[int(q)*w:int(q+1)*w], bef[int(q)*w:int(q+1)*w]
			for _, e := range a.Out[q] {
				tc, tb := cur[int(e.To)*w:int(e.To+1)*w], bef[int(e.To)*w:int(e.To+1)*w]
				grew := transfer(c, e.Ev, qc, qb, tc, tb)
				if (grew || !reached[e.To]) && !dirty[e.To] {
					dirty[e.To] = true
					pending++
				}
				reached[e.To] = true
			}
		}
	}
	return nil
}

// transfer applies one edge: it records the edge's profiles and ORs the
// sets after the edge into the target's (tc, tb), reporting growth.
func transfer(c *collector, ev model.Event, qc, qb, tc, tb []uint64) bool {
	grew := false
	switch ev.Op {
	case model.OpRead, model.OpWrite:
		l := c.al.letterOf(ev)
		c.access(l, qc, qb)
		for i := range qc {
			x := qc[i]
			if i == int(l>>6) {
				x |= 1 << (uint(l) & 63)
			}
			grew = orInto(tc, i, x) || grew
			grew = orInto(tb, i, qb[i]) || grew
		}
	case model.OpBegin, model.OpEnd:
		// The open transaction closes (begin only ever follows a closed one).
		for i := range qc {
			grew = orInto(tb, i, qb[i]|qc[i]) || grew
		}
	default:
		c.sync = c.sync || ev.Op.IsSync()
		for i := range qc {
			grew = orInto(tc, i, qc[i]) || grew
			grew = orInto(tb, i, qb[i]) || grew
		}
	}
	return grew
}

func orInto(s []uint64, i int, x uint64) bool {
	if s[i]|x == s[i] {
		return false
	}
	s[i] |= x
	return true
}

// reversePostorder lists the states reachable from Init in reverse
// postorder: predecessors first where the graph allows.
func reversePostorder(a *model.Automaton) []int32 {
	post := a.PostOrder(false)
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}
