package chain

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
// bound reaches the other threads' number it is dropped (the exhaustive
// search). Each pass rereads the spool, which is what a trace with few
// threads need not pay: up to exhaustiveThreads threads the first pass is
// already exhaustive (2^11·12 states at most per search, milliseconds).
//
// The state budget (--max-states, or DefaultChainStates without it and
// --timeout) counts the states of every pass.

// exhaustiveThreads is the thread count up to which the first pass is
// exhaustive.
const exhaustiveThreads = 12

// FirstDepth is the first pass's bound (0: none); always, the tests'
// knob, deepens whatever the threads.
func (c *Chainer) FirstDepth(always bool) int {
	if !always && c.k <= exhaustiveThreads {
		return 0
	}
	return c.deeper(0)
}

// deeper is the bound after d: 2 first (chain_short.go's linear pass),
// then double it, none once it spans every other thread.
func (c *Chainer) deeper(d int) int {
	d = max(2*d, shortDepth)
	if d >= c.k-1 {
		return 0
	}
	return d
}

// DeepScan runs the scan with growing bounds until it finds an interrupted
// transaction, or a pass ends without one and without a cut chain, or the
// budget stops it. Invariant: every pass before the current one found no
// violation among chains of its bound's length.
func (c *Chainer) DeepScan(sp *proj.Spool, u *proj.Users, always bool) (pr Interrupted, found bool, err error) {
	err = c.Deepen(always, func() (bool, error) {
		pr, found, err = c.scan(sp, u)
		return found, err
	})
	return pr, found, err
}

// Deepen runs pass (a scan at bound c.Depth, reporting whether it found a
// violation) with growing bounds, as DeepScan describes; conc predict
// --all's scan (predict/all/finders.go) deepens the same way.
func (c *Chainer) Deepen(always bool, pass func() (bool, error)) error {
	for c.Depth = c.FirstDepth(always); ; c.Depth = c.deeper(c.Depth) {
		c.cut = false
		clear(c.fmemo) // F depends on the bound
		found, err := pass()
		if err != nil || found || c.Stop != "" || !c.cut || c.Depth == 0 {
			return err
		}
	}
}
