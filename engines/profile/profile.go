package profile

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/model"
	"github.com/conc-dev/conc/profiles"
)

func init() {
	engines.Register(&engines.Engine{
		Name:     "profile",
		Doc:      "profiles (Definition 4; Lemma 4 for recursive threads) combined over normal runs (Lemmas 2-3, Theorems 1 and 3); programs without locks, fork or join",
		Supports: supports,
		Check:    Check,
		// Theorems 1 and 3 for every class without synchronisation.
		Decides: engines.Decides{Loops: true, Recursion: true, LockFree: true},
		Auto:    1,
	})
}

// ThreadProfiles is what the profile engine needs of one thread: its
// profiles, and a path of its automaton that exhibits a given profile (to
// build the witness). Extractors for other thread classes (Lemma 4's
// pushdown saturation) plug in by implementing it. Threads whose
// ThreadProfiles are the same value are identical and interchangeable.
type ThreadProfiles interface {
	Profiles() *profiles.Profiles
	Path(pr profiles.Profile) (path []model.Move, ia, ib int, ok bool, err error)
}

// finiteThread is ThreadProfiles for a finite automaton, or a pushdown one
// (whose profiles Extract computes by Lemma 4's saturation).
type finiteThread struct {
	auto *model.Automaton
	prof *profiles.Profiles
}

func (f *finiteThread) Profiles() *profiles.Profiles { return f.prof }

func (f *finiteThread) Path(pr profiles.Profile) ([]model.Move, int, int, bool, error) {
	if f.auto.Pushdown() {
		return profiles.PushdownPath(f.auto, pr)
	}
	return profiles.Path(f.auto, pr)
}

// FiniteProfiles extracts the profiles of every thread of a program (finite
// or, with the pushdown extractor, recursive); threads sharing an automaton
// share the value. The extraction watches ctx, and ends with its cause.
func FiniteProfiles(ctx context.Context, p *model.Program) ([]ThreadProfiles, error) {
	out := make([]ThreadProfiles, len(p.Threads))
	memo := map[*model.Automaton]*finiteThread{}
	for i, t := range p.Threads {
		f, ok := memo[t.Auto]
		if !ok {
			pr, err := profiles.ExtractContext(ctx, t.Auto, len(p.Vars))
			if err != nil {
				return nil, fmt.Errorf("thread %s: %w", t.Name, err)
			}
			f = &finiteThread{auto: t.Auto, prof: pr}
			memo[t.Auto] = f
		}
		out[i] = f
	}
	return out, nil
}

// supports accepts programs (finite or recursive) without synchronisation, or
// with it when --ignore-sync drops it.
func supports(p *model.Program, opts engines.Options) error {
	if p.HasSync() && !opts.IgnoreSync {
		return errProfileSync
	}
	return nil
}

var errProfileSync = errors.New("profile engine: the program uses locks, fork or join, and profiles (Lemma 3) decide only programs without them; pass --ignore-sync to drop them (optimistic), or use --engine global")

// prepare extracts the profiles (one pass over each distinct automaton,
// which also finds stack and sync edges) and applies --ignore-sync; note is
// the Result.Reason of a violation, events the edges extraction visited.
func prepare(ctx context.Context, p *model.Program, opts engines.Options) (q *model.Program, tps []ThreadProfiles, note string, events int64, err error) {
	if tps, err = FiniteProfiles(ctx, p); err != nil {
		return nil, nil, "", 0, err
	}
	sync := false
	for _, c := range classesOf(tps) {
		sync = sync || c.prof.Sync
		events += int64(c.prof.Edges)
	}
	switch {
	case sync && !opts.IgnoreSync:
		return nil, nil, "", 0, errProfileSync
	case sync:
		// Profiles ignore sync events already; the witness is a run of the
		// program without them, whose automata keep the same edge indices.
		p = model.DropSync(p)
		note = engines.OptimisticNote
	}
	return p, tps, note, events, nil
}

func Check(ctx context.Context, p *model.Program, opts engines.Options) (engines.Result, error) {
	return withProfiles(ctx, p, opts, Decide)
}

// withProfiles extracts p's profiles (prepare) and decides them with
// decide, adding prepare's note and the run's size and time.
func withProfiles(ctx context.Context, p *model.Program, opts engines.Options,
	decide func(context.Context, *model.Program, []ThreadProfiles, engines.Options) (engines.Result, error)) (engines.Result, error) {
	start := time.Now()
	q, tps, note, events, err := prepare(ctx, p, opts)
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Cause(ctx)) {
		// The extraction stopped for the deadline (or the memory watch,
		// which the CLI names): unknown, as when the search stops.
		return engines.Result{Engine: "profile", Verdict: engines.Unknown, Reason: deadlineReason, Limit: engines.Deadline}, nil
	}
	if err != nil {
		return engines.Result{Engine: "profile"}, err
	}
	res, err := decide(ctx, q, tps, opts)
	if res.Verdict == engines.Violation { // the note is about the run (docs/spec.md §4)
		res.Reason = joinReason(res.Reason, note)
	}
	res.Stats.Events = events
	res.Stats.Millis = time.Since(start).Milliseconds()
	return res, err
}

func joinReason(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// threadClass is a set of interchangeable threads (one ThreadProfiles).
type threadClass struct {
	tp      ThreadProfiles
	prof    *profiles.Profiles
	threads []int // indices into Program.Threads, increasing
}

// classesOf groups threads by their ThreadProfiles value, in order of first
// thread.
func classesOf(tps []ThreadProfiles) []*threadClass {
	var cs []*threadClass
	index := map[ThreadProfiles]int{}
	for t, tp := range tps {
		i, ok := index[tp]
		if !ok {
			i = len(cs)
			index[tp] = i
			cs = append(cs, &threadClass{tp: tp, prof: tp.Profiles()})
		}
		cs[i].threads = append(cs[i].threads, t)
	}
	return cs
}
