package pair

import (
	"slices"

	"github.com/conc-dev/conc/predict/internal/hb"

	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/predict/internal/proj"
	"github.com/conc-dev/conc/trace"
)

// A two-thread pattern's run starts with the context C: what happens
// before T1's and T2's forks, in its observed order. C may leave a third
// thread inside a critical section (T0 forks T2 while holding m), and if
// T1 or T2 then needs that lock the run deadlocks and the pattern's group
// was dropped although a run exists: the third thread can go on to
// release the lock first. freeContext moves every thread other than T1
// and T2 that C leaves holding a shared lock on to its next position
// holding none, with what happens before it in the observed order (the
// set stays down-closed, so C is still a run in its observed order), as
// long as that takes no step of T1 or T2; each round's additions can
// leave another thread inside a section, so it repeats until nothing
// changes (at most once per thread).

// FreeContext extends ctx (edges per thread) as above, in place.
func FreeContext(s *proj.Summary, sp *proj.Spool, ctx []int64, t1, t2 int) error {
	for range len(ctx) {
		ext, err := contextReleases(s, sp, ctx, t1, t2)
		if err != nil || len(ext) == 0 {
			return err
		}
		grown := false
		for _, vc := range ext {
			if vc[t1] > ctx[t1] || vc[t2] > ctx[t2] {
				continue // it needs T1 or T2 to move: not part of C
			}
			for t, n := range vc {
				if n > ctx[t] {
					ctx[t], grown = n, true
				}
			}
		}
		if !grown {
			return nil
		}
	}
	return nil
}

// contextReleases is one pass: for each thread other than t1 and t2 that
// holds a shared lock where ctx leaves it, the vector clock (in edges) of
// its next position holding no lock, if it reaches one.
func contextReleases(s *proj.Summary, sp *proj.Spool, ctx []int64, t1, t2 int) ([][]int64, error) {
	k := len(ctx)
	w := hb.NewWalk(k, len(s.Locks), false)
	held := make([][]int32, k)
	stuck := make([]bool, k) // holds a shared lock at ctx[t]
	var out [][]int64
	// The pass ends once every thread is past C and none is left stuck:
	// C is usually a short prefix (what precedes two forks).
	todo, stuckN := 0, 0
	for t, n := range ctx {
		if n > 0 && t != t1 && t != t2 {
			todo++
		}
	}
	if todo == 0 {
		return nil, nil
	}
	_, err := proj.SpoolEach(sp, func() bool { return false }, func(ev *trace.Event) bool {
		t := int(ev.Thread)
		w.Step(ev)
		switch ev.Op {
		case model.OpAcquire:
			held[t] = append(held[t], ev.Target)
		case model.OpRelease:
			if i := slices.Index(held[t], ev.Target); i >= 0 {
				held[t] = slices.Delete(held[t], i, i+1)
			}
		}
		switch pos := w.VC[t][t]; {
		case t == t1 || t == t2:
		case pos == ctx[t]:
			stuck[t] = slices.ContainsFunc(held[t], s.SharedLock)
			todo--
			stuckN += b2i(stuck[t])
		case pos > ctx[t] && stuck[t] && len(held[t]) == 0:
			stuck[t] = false
			stuckN--
			out = append(out, slices.Clone(w.VC[t]))
		}
		return todo > 0 || stuckN > 0
	})
	return out, err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
