package verify

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/model"
)

// namesOnly is p with its threads' automata taken away: Prefix needs only the
// names.
func namesOnly(p *model.Program) *model.Program {
	q := *p
	q.Threads = nil
	for _, t := range p.Threads {
		q.Threads = append(q.Threads, &model.Thread{Name: t.Name, Auto: &model.Automaton{Out: make([][]model.Edge, 1)}})
	}
	return &q
}

// TestPrefixAgreesWithWitness: on straight-line runs Prefix answers as
// Witness does, for valid witnesses and for each kind of invalid one it
// still checks (lock validity, fork and join order, the cycle).
func TestPrefixAgreesWithWitness(t *testing.T) {
	none := []int{-1, -1}
	both := []bool{true, true}
	p, w := figure1(t)
	require.NoError(t, Prefix(namesOnly(p), w, none, both, nil))

	p = straight(t, "b acq:l rel:l acq:l rel:l e", "acq:l rel:l")
	order := []int{1, 1, 1, 2, 2, 1, 1, 1}
	w = schedule(p, order, []model.Conflict{{From: 2, To: 4}, {From: 4, To: 7}, {From: 7, To: 9}}, true)
	require.NoError(t, Prefix(namesOnly(p), w, none, both, nil))
	w = schedule(p, order, []model.Conflict{{From: 2, To: 3}, {From: 3, To: 4}, {From: 4, To: 5}}, false)
	require.ErrorContains(t, Prefix(namesOnly(p), w, none, both, nil), "belongs to no transaction")

	// T2 acquires the lock T1 holds.
	p = straight(t, "b acq:l w:x rel:l e", "acq:l r:x rel:l")
	w = schedule(p, []int{1, 1, 2, 1, 2, 2, 1, 1}, []model.Conflict{{From: 2, To: 4}}, false)
	require.ErrorContains(t, Witness(p, w), "acquires a lock held by T1")
	require.ErrorContains(t, Prefix(namesOnly(p), w, none, both, nil), "acquires a lock held by T1")

	// Fork and join: T2 runs before its fork; a join of an unfinished thread.
	p = straight(t, "b fork:T2 join:T2 e", "b w:x e")
	w = schedule(p, []int{1, 1, 2, 2, 2, 1, 1}, []model.Conflict{{From: 1, To: 2}, {From: 4, To: 5}}, true)
	require.NoError(t, Prefix(namesOnly(p), w, []int{-1, 0}, both, nil))
	require.ErrorContains(t, Prefix(namesOnly(p), w, []int{-1, 0}, []bool{true, false}, nil), "whose path does not end finished")
	w = schedule(p, []int{2, 1, 1, 2, 2, 1, 1}, []model.Conflict{{From: 2, To: 3}}, true)
	require.ErrorContains(t, Witness(p, w), "comes before T2 is forked")
	require.ErrorContains(t, Prefix(namesOnly(p), w, []int{-1, 0}, both, nil), "comes before T2 is forked")

	// Paths shorter than the run, and information for the wrong threads.
	p, w = figure1(t)
	w.Paths[1] = w.Paths[1][:2]
	require.ErrorContains(t, Prefix(namesOnly(p), w, none, both, nil), "path has 2 moves, but the run has 4")
	require.ErrorContains(t, Prefix(namesOnly(p), w, []int{-1}, both, nil), "fork and end information")
	require.Error(t, Prefix(nil, w, none, both, nil))
}
