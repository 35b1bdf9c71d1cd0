package lang

// findRecursive marks the procedures that lie on a call cycle: the strongly
// connected components of the call graph with a cycle (Tarjan's algorithm).
// Only these become pushdown code; every other call is inlined.
func (n *names) findRecursive() {
	n.recursive = map[*ProcDecl]bool{}
	t := &tarjan{n: n, index: map[*ProcDecl]int{}, low: map[*ProcDecl]int{}, onStack: map[*ProcDecl]bool{}}
	for _, p := range n.procOrder {
		if _, seen := t.index[p]; !seen {
			t.visit(p)
		}
	}
}

type tarjan struct {
	n       *names
	index   map[*ProcDecl]int
	low     map[*ProcDecl]int
	onStack map[*ProcDecl]bool
	stack   []*ProcDecl
}

// visit is Tarjan's strongconnect. Call chains are as deep as the program
// text, so the recursion is bounded by the source size.
func (t *tarjan) visit(p *ProcDecl) {
	t.index[p] = len(t.index)
	t.low[p] = t.index[p]
	t.stack = append(t.stack, p)
	t.onStack[p] = true
	for _, q := range t.n.callees(p) {
		if _, seen := t.index[q]; !seen {
			t.visit(q)
			t.low[p] = min(t.low[p], t.low[q])
		} else if t.onStack[q] {
			t.low[p] = min(t.low[p], t.index[q])
		}
	}
	if t.low[p] != t.index[p] {
		return
	}
	var scc []*ProcDecl
	for {
		q := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.onStack[q] = false
		scc = append(scc, q)
		if q == p {
			break
		}
	}
	if len(scc) > 1 || t.n.callsItself(p) {
		for _, q := range scc {
			t.n.recursive[q] = true
		}
	}
}

// callees lists the known procedures p calls, in order, once each.
func (n *names) callees(p *ProcDecl) []*ProcDecl {
	if cs, ok := n.calls[p]; ok {
		return cs
	}
	var cs []*ProcDecl
	seen := map[*ProcDecl]bool{}
	walkCalls(p.Body, func(c *Call) {
		if q, ok := n.procs[c.Proc.Name]; ok && !seen[q] {
			seen[q] = true
			cs = append(cs, q)
		}
	})
	n.calls[p] = cs
	return cs
}

func (n *names) callsItself(p *ProcDecl) bool {
	for _, q := range n.callees(p) {
		if q == p {
			return true
		}
	}
	return false
}

// walkCalls calls f on every call statement in b, nested ones included.
func walkCalls(b *Block, f func(*Call)) {
	for _, s := range b.Stmts.List {
		switch s := s.(type) {
		case *Call:
			f(s)
		case *Sync:
			walkCalls(s.Body, f)
		case *Atomic:
			walkCalls(s.Body, f)
		case *Loop:
			walkCalls(s.Body, f)
		case *Repeat:
			walkCalls(s.Body, f)
		case *Choose:
			for _, br := range s.Branches {
				walkCalls(br, f)
			}
		}
	}
}
