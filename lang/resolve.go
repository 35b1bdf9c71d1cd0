package lang

import "github.com/conc-dev/conc/model"

// names resolves the program's variables, locks, procedures and threads:
// the checks of docs/spec.md §2 that do not depend on control flow (duplicates,
// undeclared names, a name used both as variable and lock, unknown
// procedures). Vars and locks are numbered in order of declaration, or of
// first use in source order when the program declares none.
//
// The declaration rule: a file that declares anything (a vars or a locks
// line) must declare every variable and every lock it uses. Declaring is
// all or nothing because a file with declarations reads as complete: were
// locks still declared by use beside "vars x", a typo such as "sync mm" for
// "sync m" would silently make a second lock and change the verdict.
type names struct {
	errs          *ErrorList
	vars, locks   symtab
	procs         map[string]*ProcDecl
	procOrder     []*ProcDecl
	calls         map[*ProcDecl][]*ProcDecl // callees, by findRecursive
	recursive     map[*ProcDecl]bool        // on a call cycle
	threads       []*ThreadDecl
	declaredVars  bool
	declaredLocks bool
}

// symtab numbers names in order of first appearance.
type symtab struct {
	index map[string]int32
	list  []string
}

func (t *symtab) lookup(name string) (int32, bool) {
	i, ok := t.index[name]
	return i, ok
}

func (t *symtab) add(name string) int32 {
	if t.index == nil {
		t.index = map[string]int32{}
	}
	i := int32(len(t.list))
	t.index[name] = i
	t.list = append(t.list, name)
	return i
}

// resolve runs the name checks over the whole file: declarations first, so
// that uses before a declaration resolve, then every use in source order.
func resolve(f *File, errs *ErrorList) *names {
	n := &names{errs: errs, procs: map[string]*ProcDecl{}, calls: map[*ProcDecl][]*ProcDecl{}}
	n.declare(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ProcDecl:
			n.useBlock(d.Body)
		case *ThreadDecl:
			if d.Body != nil {
				n.useBlock(d.Body)
			} else {
				n.useAutomaton(d.Auto)
			}
		}
	}
	n.findRecursive()
	return n
}

// declare records vars, locks, procedures and threads, reporting duplicates.
func (n *names) declare(f *File) {
	threads := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *NameList:
			n.declareNames(d)
		case *ProcDecl:
			if _, dup := n.procs[d.Name.Name]; dup {
				n.errs.add(toPos(d.Name.Pos), "procedure %s redeclared", d.Name.Name)
				continue
			}
			n.procs[d.Name.Name] = d
			n.procOrder = append(n.procOrder, d)
		case *ThreadDecl:
			if threads[d.Name.Name] {
				n.errs.add(toPos(d.Name.Pos), "thread %s redeclared", d.Name.Name)
				continue
			}
			threads[d.Name.Name] = true
			n.threads = append(n.threads, d)
		}
	}
}

func (n *names) declareNames(d *NameList) {
	own, other, kind, otherKind := &n.vars, &n.locks, "variable", "lock"
	if d.Kind == "locks" {
		own, other, kind, otherKind = &n.locks, &n.vars, "lock", "variable"
		n.declaredLocks = true
	} else {
		n.declaredVars = true
	}
	for _, id := range d.Names {
		switch _, dup := own.lookup(id.Name); {
		case dup:
			n.errs.add(toPos(id.Pos), "%s %s redeclared", kind, id.Name)
		case n.has(other, id.Name):
			n.errs.add(toPos(id.Pos), "%s declared both as a %s and as a %s", id.Name, otherKind, kind)
		default:
			own.add(id.Name)
		}
	}
}

func (n *names) has(t *symtab, name string) bool {
	_, ok := t.lookup(name)
	return ok
}

// useVar resolves a use of a variable.
func (n *names) useVar(id *Ident) {
	n.use(id, &n.vars, &n.locks, n.declaredVars, "variable", "lock")
}

// useLock resolves a use of a lock.
func (n *names) useLock(id *Ident) {
	n.use(id, &n.locks, &n.vars, n.declaredLocks, "lock", "variable")
}

// use resolves one use of a name of the given kind; ownDeclared tells
// whether the file has a declaration line of that kind. Every use of an
// undeclared name is reported, each at the use.
func (n *names) use(id *Ident, own, other *symtab, ownDeclared bool, kind, otherKind string) {
	if n.has(own, id.Name) {
		return
	}
	switch {
	case n.has(other, id.Name):
		n.errs.add(toPos(id.Pos), "%s is used both as a %s and as a %s", id.Name, otherKind, kind)
	case ownDeclared:
		n.errs.add(toPos(id.Pos), "undeclared %s %s", kind, id.Name)
	case n.declaredVars || n.declaredLocks:
		// Only the other kind is declared: say why this one must be too.
		n.errs.add(toPos(id.Pos), "undeclared %s %s (the file declares %ss, so every %s must be declared)",
			kind, id.Name, otherKind, kind)
	default:
		own.add(id.Name)
	}
}

func (n *names) useBlock(b *Block) {
	for _, s := range b.Stmts.List {
		n.useStmt(s)
	}
}

func (n *names) useStmt(s Stmt) {
	switch s := s.(type) {
	case *Access:
		for _, id := range s.Names {
			n.useVar(id)
		}
	case *LockOp:
		n.useLock(s.Lock)
	case *Sync:
		n.useLock(s.Lock)
		n.useBlock(s.Body)
	case *Atomic:
		n.useBlock(s.Body)
	case *Loop:
		n.useBlock(s.Body)
	case *Repeat:
		n.repeatCount(s.Count)
		n.useBlock(s.Body)
	case *Choose:
		for _, b := range s.Branches {
			n.useBlock(b)
		}
	case *Call:
		if _, ok := n.procs[s.Proc.Name]; !ok {
			n.errs.add(toPos(s.Proc.Pos), "unknown procedure %s", s.Proc.Name)
		}
	}
}

func (n *names) useAutomaton(a *Automaton) {
	for _, e := range a.Edges {
		switch e.Label.Op {
		case "read", "write":
			n.useVar(e.Label.Target)
		case "acquire", "release":
			n.useLock(e.Label.Target)
		}
	}
}

// maxRepeat bounds repeat counts (docs/spec.md §2) and thread counts.
const maxRepeat = 1_000_000

// repeatCount checks a repeat count.
func (n *names) repeatCount(c *IntLit) {
	if _, ok := parseCount(c.Text); !ok {
		n.errs.add(toPos(c.Pos), "repeat count %s exceeds %d", c.Text, maxRepeat)
	}
}

// parseCount parses a decimal count of at most maxRepeat.
func parseCount(text string) (int, bool) {
	v := 0
	for _, d := range text {
		v = v*10 + int(d-'0')
		if v > maxRepeat {
			return 0, false
		}
	}
	return v, true
}

// target returns the index of a variable or lock, or -1 when it did not
// resolve (an error is already reported).
func (n *names) target(op model.Op, id *Ident) int32 {
	t := &n.vars
	if op == model.OpAcquire || op == model.OpRelease {
		t = &n.locks
	}
	if i, ok := t.lookup(id.Name); ok {
		return i
	}
	return -1
}
