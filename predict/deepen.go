package predict

import "github.com/conc-dev/conc/predict/internal/proj"

// Short chains first. The chain search is exponential in the threads
// (Theorem 2), but most violations need one or two other threads: a trace
// of 30 threads each running `begin r(x) w(x) end` is violated by any two
// of them, yet the exhaustive search for F over chains of every length took
// 2^29 states. So the scan is iterative deepening on the chain's length:
// pass n bounds a chain to depth(n) threads besides the interrupted one
// (2, 4, 8, …; the first pass is linear, chain_short.go), and a violation
// a pass finds is one (F over fewer chains
// is larger, never smaller, than the true F: every pair it reports has a
// chain). A pass that finds none is final unless the bound kept some chain
// from growing (chainer.cut); then the next pass doubles it, and once the
// bound reaches the other threads' number it is dropped (exhaustive, the old
// search). Each pass rereads the spool, which is what a trace with few
// threads need not pay: up to exhaustiveThreads threads the first pass is
// already exhaustive (2^11·12 states at most per search, milliseconds).
//
// The state budget (--max-states, or DefaultChainStates without it and
// --timeout) counts the states of every pass.

// exhaustiveThreads is the thread count up to which the first pass is
// exhaustive.
const exhaustiveThreads = 12

// DefaultChainStates is the lock-free chain search's budget without
// --max-states or --timeout. Beyond 16 threads a state is a map entry and
// costs about 1.5-2 µs with the successors it tries (BenchmarkChainStates),
// so the budget ends the search in about 4 s and 130 MB (30 threads that
// chain every way and never close).
const DefaultChainStates = 2_000_000

// firstDepth is the first pass's bound (0: none); always, the tests'
// knob, deepens whatever the threads.
func (c *chainer) firstDepth(always bool) int {
	if !always && c.k <= exhaustiveThreads {
		return 0
	}
	return c.deeper(0)
}

// deeper is the bound after d: 2 first (chain_short.go's linear pass),
// then double it, none once it spans every other thread.
func (c *chainer) deeper(d int) int {
	d = max(2*d, shortDepth)
	if d >= c.k-1 {
		return 0
	}
	return d
}

// deepScan runs the scan with growing bounds until it finds an interrupted
// transaction, or a pass ends without one and without a cut chain, or the
// budget stops it. Invariant: every pass before the current one found no
// violation among chains of its bound's length.
func (c *chainer) deepScan(sp *proj.Spool, u *proj.Users, always bool) (pr pair, found bool, err error) {
	err = c.deepen(always, func() (bool, error) {
		pr, found, err = c.scan(sp, u)
		return found, err
	})
	return pr, found, err
}

// deepen runs pass (a scan at bound c.depth, reporting whether it found a
// violation) with growing bounds, as deepScan describes; conc predict
// --all's scan (all_collect.go) deepens the same way.
func (c *chainer) deepen(always bool, pass func() (bool, error)) error {
	for c.depth = c.firstDepth(always); ; c.depth = c.deeper(c.depth) {
		c.cut = false
		clear(c.fmemo) // F depends on the bound
		found, err := pass()
		if err != nil || found || c.stop != "" || !c.cut || c.depth == 0 {
			return err
		}
	}
}

// chainBudget is the lock-free search's default state budget.
func (p *predictor) chainBudget() int64 {
	if p.o.chainBudget > 0 {
		return p.o.chainBudget
	}
	return DefaultChainStates
}
