package predict

import (
	"fmt"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/predict/internal/proj"
)

// The lock-aware cascade decides a trace with locks, fork or join: a
// table of steps, tried in order, each a value that says what it can
// decide, when it runs, and how. A step answers (a violation whose
// witness verify accepted, or a proof), or records what it found for the
// later steps and lets them go on. The product search over the reduced
// projection is the one step that decides everything; the steps before it
// only answer sooner, and the one after it (each pair of threads on its
// own) may still answer when it gave up.
//
// For the global engine the lock-free check runs first with the
// synchronisation dropped: without lock edges, no violation there means
// none with it (dropping locks, fork and join only adds runs and, without
// lock edges, no conflict). With shortcuts (--engine auto) the normal run
// that check found is tried as a witness, then the critical-section
// proof, the observed order, the fork prefilter, the two-thread patterns
// and the nested decision. Every witness is checked by verify.Prefix
// (locks, fork and join order, the cycle), so a shortcut never answers
// wrongly; the reason of a shortcut's answer says which one gave it.

// verdicts are the answers a step can give.
type verdicts uint8

const (
	findsViolation verdicts = 1 << iota // a verified witness
	proves                              // serializable
)

// cascadeStep is one step of the cascade.
type cascadeStep struct {
	name    string
	decides verdicts
	// runs tells whether the step applies to the request and to what the
	// earlier steps found.
	runs func(c *cascade) bool
	// decide is the step's answer, or nil to go on; it may record what it
	// found in c.
	decide func(c *cascade) (*Outcome, error)
}

// cascade is one run of the steps over a trace: the request and what the
// steps found so far.
type cascade struct {
	p           *predictor
	eng         *engines.Engine
	shortcuts   bool // the engine was chosen (--engine auto), not named
	prefiltered bool // the global engine without lock edges: the lock-free check is a proof
	// The lock-free check's: its states, its run (found), and whether that
	// run cannot respect the locks (doomed: internal/chain's doom test).
	states   int64
	plan     proj.Plan
	found    bool
	doomed   bool
	pairsToo bool // the two-thread patterns can find something (lock-free violation or stop)
	// What the two-thread searches concluded, for the unknown's reason.
	pairsTried bool
	nested     nestedResult
	// The product search's unknown answer and the reduced projection's
	// size, once it gave up; twoThreads: the pairs' products then proved
	// that no cycle goes through two threads.
	unknown    *productAnswer
	size       *proj.Reduced
	twoThreads bool
}

// lockAware runs the cascade with the engine name; shortcuts: the
// engine was chosen, not named.
func (p *predictor) lockAware(name string, shortcuts bool) (*Outcome, error) {
	eng, err := engines.Lookup(name)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	c := &cascade{p: p, eng: eng, shortcuts: shortcuts, prefiltered: name == "global" && !p.o.Check.LockEdges}
	for _, s := range cascadeSteps {
		if !s.runs(c) {
			continue
		}
		if out, err := s.decide(c); err != nil || out != nil {
			if err := s.allows(out, err); err != nil {
				return out, err
			}
			return c.withOrderings(out), nil
		}
	}
	return c.withOrderings(c.unknownAnswer()), nil
}

// withOrderings is out for a trace with the ordering extension (docs/spec.md
// §3). The product search honours them without lock edges (the global and
// brute engines: engines.Decides.Orderings); every other step drops the
// read locks, messages and tokens, which only adds runs, and every
// witness is checked to keep them. With lock edges the orderings also add
// conflicts, which no step sees, so a serializable answer proves nothing
// there.
func (c *cascade) withOrderings(out *Outcome) *Outcome {
	if !c.p.s.Orderings || !c.p.o.Check.LockEdges || c.p.o.Check.IgnoreSync || out.Result.Verdict != engines.Serializable {
		return out
	}
	out.Result.Verdict, out.Result.Reason = engines.Unknown, orderingsLockEdgesNote
	return out
}

// allows is err, or an internal error when the step answered what its
// row says it cannot decide (an unknown is always allowed): the table is
// what docs/predict.md and the tests read as each step's contract.
func (s cascadeStep) allows(out *Outcome, err error) error {
	if err != nil {
		return err
	}
	switch v := out.Result.Verdict; {
	case v == engines.Violation && s.decides&findsViolation == 0,
		v == engines.Serializable && s.decides&proves == 0:
		return fmt.Errorf("predict: internal error: step %q answered %s, which it does not decide", s.name, v)
	}
	return nil
}

// global tells whether the cascade runs the global engine (the lock-free
// steps are its).
func (c *cascade) global() bool { return c.eng.Name == "global" }

// cascadeSteps are the steps in the order they are tried.
var cascadeSteps = []cascadeStep{
	{name: "lock-free check", decides: proves, runs: (*cascade).global, decide: (*cascade).lockFree},
	{name: "normal run", decides: findsViolation, runs: func(c *cascade) bool { return c.shortcuts && c.found && !c.doomed },
		decide: func(c *cascade) (*Outcome, error) { return answer(c.p.checked(c.plan, normalRunNote)) }},
	{name: "critical sections", decides: proves, runs: func(c *cascade) bool { return c.shortcuts && c.prefiltered },
		decide: func(c *cascade) (*Outcome, error) { return answer(c.p.locksProtect(c.states)) }},
	{name: "observed order", decides: findsViolation, runs: (*cascade).short,
		decide: func(c *cascade) (*Outcome, error) { return answer(c.p.observedOrPairs(c.pairsToo)) }},
	{name: "fork prefilter", decides: proves, runs: (*cascade).short, decide: (*cascade).forkPrefilter},
	{name: "lock pattern", decides: findsViolation, runs: (*cascade).short,
		decide: func(c *cascade) (*Outcome, error) { return answer(c.p.pairsLocked(true)) }},
	{name: "happens-before pattern", decides: findsViolation,
		runs:   func(c *cascade) bool { return c.shortcuts && (c.pairsToo || !c.global()) },
		decide: func(c *cascade) (*Outcome, error) { return answer(c.p.pairs()) }},
	{name: "nested decision", decides: findsViolation, runs: func(c *cascade) bool { return c.shortcuts && c.pairsToo },
		decide: (*cascade).nestedDecision},
	{name: "product search", decides: findsViolation | proves, runs: func(*cascade) bool { return true },
		decide: (*cascade).productSearch},
	{name: "pair products", decides: findsViolation | proves, runs: func(c *cascade) bool { return c.unknown != nil },
		decide: (*cascade).pairProducts},
}

// short tells whether the shortcuts run (--engine auto).
func (c *cascade) short() bool { return c.shortcuts }

// answer is a step's (outcome, found, err) as the cascade's (nil: go on).
func answer(out *Outcome, ok bool, err error) (*Outcome, error) {
	if err != nil || !ok {
		return nil, err
	}
	return out, nil
}

// lockFree is the lock-free check (with shortcuts, planning a run that
// must respect the locks: internal/chain's doom test); without lock edges
// finding nothing proves the trace serializable. A violation, or a stop,
// lets the two-thread patterns look.
func (c *cascade) lockFree() (*Outcome, error) {
	p := c.p
	pl, found, ch, err := p.lockFreeFor(c.shortcuts && !p.o.Check.IgnoreSync)
	c.states, c.plan, c.found, c.doomed = ch.States, pl, found, ch.Doomed
	switch {
	case err != nil:
		return nil, err
	case c.prefiltered && !found && ch.Stop == "":
		return proved(ch.States, prefilterNote), nil
	}
	// The two-thread patterns (internal/pair) only when the
	// lock-free check has a violation (their runs are runs of the program
	// without synchronisation, with the same cycle of access conflicts,
	// so otherwise they have none).
	c.pairsToo = found || ch.Stop != ""
	return nil, nil
}

// forkPrefilter proves the trace serializable when the lock-free check
// with the forks kept finds nothing (forkscan.go).
func (c *cascade) forkPrefilter() (*Outcome, error) {
	ok, err := c.p.forkPrefilter()
	if err != nil || !ok {
		return nil, err
	}
	return proved(c.states, forkPrefilterNote), nil
}

// nestedDecision is step 5c: two threads and one variable, in linear
// time; what it concludes words a later unknown.
func (c *cascade) nestedDecision() (*Outcome, error) {
	out, nr, err := c.p.nestedPairs()
	if err != nil || out != nil {
		return out, err
	}
	c.nested = nr
	return nil, nil
}

// productSearch runs the engine on the reduced projection. Its answer is
// final unless it gave up with shortcuts on: then each pair of threads
// on its own may still answer.
func (c *cascade) productSearch() (*Outcome, error) {
	c.pairsTried = c.shortcuts
	u, size, err := c.p.engine(c.eng, c.prefiltered)
	switch {
	case err != nil:
		return nil, err
	case u.out.Result.Verdict != engines.Unknown:
		return u.out, nil
	}
	c.unknown, c.size = u, size
	if c.p.ordered(c.eng) {
		c.size = nil // counted with the orderings: the pairs' products drop them
	}
	if !c.shortcuts {
		return c.unknownAnswer(), nil
	}
	return nil, nil
}

// pairProducts runs the global engine on each pair of threads
// (internal/products): it may find a violation, or prove that no cycle
// goes through two threads only, which with at most two busy threads is
// a proof. Its sizes are the pairs' when the synchronisation was kept.
func (c *cascade) pairProducts() (*Outcome, error) {
	size := c.size
	if c.p.o.Check.IgnoreSync {
		size = nil
	}
	pout, pp, err := c.p.pairProducts(size)
	switch {
	case err != nil || pout != nil:
		return pout, err
	case pp.proved && pp.busy <= 2:
		return proved(c.states, pairsProvedNote), nil
	}
	c.twoThreads = pp.proved
	return nil, nil
}
