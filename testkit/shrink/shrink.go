package shrink

import (
	"regexp"
	"strings"

	"github.com/conc-dev/conc/lang"
)

// Program returns a smallest program it can find, from src, for which fails
// still holds: it deletes statements, declarations and threads, replaces
// blocks by one of their bodies, drops choose branches and cuts repeat and
// thread W[n] counts to 1, keeping each edit while fails holds. Candidates
// that lang.Compile rejects are skipped, so fails only sees valid programs
// and the result is one. src itself is returned when no edit keeps the
// failure (or when src does not parse into lines and blocks).
//
// Program works on the layout the generators print (one statement a line,
// "{" ending a block's line); in hand-written programs, a line holding a
// whole block is one statement to it. Comments are dropped.
//
// Invariant of the loop: cur compiles and fails(cur) held (for src, as the
// caller claims); each round tries edits from the outermost statements
// inwards and restarts at the first that keeps the failure, so the result
// is a local minimum: no single edit keeps the failure.
func Program(src string, fails func(string) bool) string {
	top, ok := parseLines(src)
	if !ok {
		return src
	}
	cur := render(top)
	for {
		next, found := shrinkStep(top, fails)
		if !found {
			return cur
		}
		top, cur = next, render(next)
	}
}

// shrinkStep tries every single edit of top, outermost first, and returns
// the first edited program that compiles and still fails.
func shrinkStep(top []*node, fails func(string) bool) ([]*node, bool) {
	leaves := leafProcs(top)
	for _, s := range sites(top) {
		for _, e := range edits {
			cand := cloneList(top)
			list := s.list(&cand)
			nl, ok := e(*list, s.i, editCtx{top: len(s.path) == 0, leaves: leaves})
			if !ok {
				continue
			}
			*list = nl
			text := render(cand)
			if _, err := lang.Compile("shrink.conc", []byte(text)); err != nil {
				continue
			}
			if fails(text) {
				return cand, true
			}
		}
	}
	return nil, false
}

// step descends into body Body of the node at index Node.
type step struct{ Node, Body int }

// site is the statement at index i of the list reached by path.
type site struct {
	path []step
	i    int
}

func (s site) list(top *[]*node) *[]*node {
	l := top
	for _, st := range s.path {
		l = &(*l)[st.Node].Bodies[st.Body]
	}
	return l
}

// sites lists every statement breadth first: outer statements (whole
// threads first) before the statements inside them.
func sites(top []*node) []site {
	type item struct {
		path []step
		list []*node
	}
	var out []site
	queue := []item{{nil, top}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		for i, n := range it.list {
			out = append(out, site{it.path, i})
			for b, body := range n.Bodies {
				p := append(append([]step{}, it.path...), step{i, b})
				queue = append(queue, item{p, body})
			}
		}
	}
	return out
}

// An edit changes the statement at index i of list and reports whether it
// applies there.
type edit func(list []*node, i int, c editCtx) ([]*node, bool)

// editCtx is what an edit may know besides its list: whether the list is
// the declarations, and the bodies of the procedures that call no other.
type editCtx struct {
	top    bool
	leaves map[string][]*node
}

var edits = []edit{deleteStmt, deleteLockPair, unwrapBlock, dropBranch, cutCount, inlineCall, dropName}

func splice(list []*node, i, n int, with ...*node) []*node {
	out := append([]*node{}, list[:i]...)
	out = append(out, with...)
	return append(out, list[i+n:]...)
}

func deleteStmt(list []*node, i int, _ editCtx) ([]*node, bool) {
	return splice(list, i, 1), true
}

// deleteLockPair deletes an acquire with the next release of its lock in
// the same block (deleting either alone could not compile).
func deleteLockPair(list []*node, i int, _ editCtx) ([]*node, bool) {
	lock, ok := strings.CutPrefix(list[i].Head, "acquire ")
	if !ok || list[i].IsBlock() {
		return nil, false
	}
	for j := i + 1; j < len(list); j++ {
		if !list[j].IsBlock() && list[j].Head == "release "+lock {
			out := splice(list, j, 1)
			return splice(out, i, 1), true
		}
	}
	return nil, false
}

// unwrapBlock replaces a statement block by its first body with statements,
// keeping what the block holds but not the block (no transaction, no loop).
// Declarations are never unwrapped.
func unwrapBlock(list []*node, i int, c editCtx) ([]*node, bool) {
	n := list[i]
	if c.top || !n.IsBlock() {
		return nil, false
	}
	for _, b := range n.Bodies {
		if len(b) > 0 {
			return splice(list, i, 1, b...), true
		}
	}
	return splice(list, i, 1), true
}

// dropBranch removes the first branch of a choose with three or more.
func dropBranch(list []*node, i int, _ editCtx) ([]*node, bool) {
	n := list[i]
	if len(n.Bodies) < 3 {
		return nil, false
	}
	c := n.Clone()
	c.Bodies = c.Bodies[1:]
	return splice(list, i, 1, c), true
}

var countRE = regexp.MustCompile(`^(repeat\s+|thread\s+\w+\s*\[\s*)(\d+)`)

// cutCount turns repeat N and thread W[N] into N = 1.
func cutCount(list []*node, i int, _ editCtx) ([]*node, bool) {
	m := countRE.FindStringSubmatchIndex(list[i].Head)
	if m == nil || list[i].Head[m[4]:m[5]] == "1" {
		return nil, false
	}
	c := list[i].Clone()
	c.Head = c.Head[:m[4]] + "1" + c.Head[m[5]:]
	return splice(list, i, 1, c), true
}

// inlineCall replaces a call of a procedure that calls no other by the
// procedure's body, so that a chain of calls shrinks to the statements it
// makes. Inlining only call-free bodies makes every such edit remove a call,
// so the shrinking still terminates.
func inlineCall(list []*node, i int, c editCtx) ([]*node, bool) {
	name, ok := strings.CutPrefix(list[i].Head, "call ")
	body, known := c.leaves[strings.TrimSpace(name)]
	if !ok || !known || list[i].IsBlock() {
		return nil, false
	}
	return splice(list, i, 1, cloneList(body)...), true
}

// leafProcs maps the procedures of top whose bodies make no call to their
// bodies.
func leafProcs(top []*node) map[string][]*node {
	m := map[string][]*node{}
	for _, n := range top {
		name, ok := strings.CutPrefix(n.Head, "proc ")
		if ok && len(n.Bodies) == 1 && !makesCall(n.Bodies[0]) {
			m[strings.TrimSpace(name)] = n.Bodies[0]
		}
	}
	return m
}

func makesCall(list []*node) bool {
	for _, n := range list {
		if strings.HasPrefix(n.Head, "call ") {
			return true
		}
		for _, b := range n.Bodies {
			if makesCall(b) {
				return true
			}
		}
	}
	return false
}

var listRE = regexp.MustCompile(`^(read|write|vars|locks)\s+(\w+)\s*,\s*(.*)$`)

// dropName drops the first name of a name list: read x, y becomes read y,
// and vars x, y becomes vars y.
func dropName(list []*node, i int, _ editCtx) ([]*node, bool) {
	m := listRE.FindStringSubmatch(list[i].Head)
	if m == nil || list[i].IsBlock() {
		return nil, false
	}
	return splice(list, i, 1, leaf(m[1]+" "+m[3])), true
}
