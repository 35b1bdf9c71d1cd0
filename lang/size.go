package lang

// sizes bounds, before anything is built, how many states a thread's
// automaton will have: repeat counts multiply and inlined procedures are
// copied at every call, so a few lines can describe 2^40 states. The bound
// saturates just above maxStates; compile refuses threads beyond it with a
// message instead of allocating first.
type sizes struct {
	n     *names
	memo  map[sizeKey]int64 // inlined procedures
	loops map[loopKey]int64 // loop bodies, asked again by the builder
}

type sizeKey struct {
	p     *ProcDecl
	inTxn bool
}

type loopKey struct {
	b     *Block
	inTxn bool
}

func newSizes(n *names) *sizes {
	return &sizes{n: n, memo: map[sizeKey]int64{}, loops: map[loopKey]int64{}}
}

// loop bounds a loop body, once: nested loops would otherwise cost time
// quadratic in their depth.
func (z *sizes) loop(b *Block, inTxn bool) int64 {
	key := loopKey{b, inTxn}
	if v, ok := z.loops[key]; ok {
		return v
	}
	v := z.block(b, inTxn)
	z.loops[key] = v
	return v
}

func sat(x int64) int64 { return min(x, maxStates+1) }

// block bounds the states added by a block started in or out of a
// transaction (unary transactions cost three states an access, others one).
func (z *sizes) block(b *Block, inTxn bool) int64 {
	total := int64(0)
	for _, s := range b.Stmts.List {
		total = sat(total + z.stmt(s, inTxn))
	}
	return total
}

func (z *sizes) stmt(s Stmt, inTxn bool) int64 {
	switch s := s.(type) {
	case *Access:
		if inTxn {
			return int64(len(s.Names))
		}
		return 3 * int64(len(s.Names))
	case *LockOp:
		return 1
	case *Sync:
		return sat(2 + z.block(s.Body, inTxn))
	case *Atomic:
		return sat(2 + z.block(s.Body, true))
	case *Loop:
		return sat(1 + z.loop(s.Body, inTxn))
	case *Repeat:
		n, _ := parseCount(s.Count.Text)
		body := z.block(s.Body, inTxn)
		if body > 0 && int64(n) > (maxStates+1)/body {
			return maxStates + 1
		}
		return int64(n) * body
	case *Choose:
		total := int64(1)
		for _, br := range s.Branches {
			total = sat(total + z.block(br, inTxn))
		}
		return total
	case *Call:
		return z.call(s, inTxn)
	}
	return 0
}

// call bounds an inlined call by its body; a recursive call adds its return
// state here and its copies are checked as they are built.
func (z *sizes) call(s *Call, inTxn bool) int64 {
	p, ok := z.n.procs[s.Proc.Name]
	if !ok {
		return 0
	}
	if z.n.recursive[p] {
		return 1
	}
	key := sizeKey{p, inTxn}
	if v, ok := z.memo[key]; ok {
		return v
	}
	v := z.block(p.Body, inTxn)
	z.memo[key] = v
	return v
}
