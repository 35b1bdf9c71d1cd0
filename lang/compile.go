package lang

import (
	"fmt"

	"github.com/conc-dev/conc/model"
)

// Compile parses and compiles a .conc source. filename is used in positions.
// On bad input it returns a nil program and an ErrorList (never panics); a
// program too large for the default memory budget is a *TooLarge
// (CompileWithin). A UTF-8 byte-order mark at the very start is skipped, as
// editors on some systems write one: positions count from the character
// after it.
func Compile(filename string, src []byte) (*model.Program, error) {
	return CompileWithin(filename, src, 0)
}

// compileResolved builds the automata of a resolved program.
// A compile the limits stopped answers with their error, whatever else
// it found.
func compileResolved(filename string, n *names, errs ErrorList, l *limiter) (*model.Program, error) {
	prog := &model.Program{File: filename}
	for _, t := range n.threads {
		count, ok := threadCount(t, &errs)
		a := compileThread(n, t, &errs, l)
		if l.stopped != nil {
			return nil, l.stopped
		}
		if !ok || a == nil {
			continue
		}
		prog.Threads = append(prog.Threads, instances(t, count, a)...)
	}
	if len(errs) > 0 {
		errs.RemoveMultiples()
		return nil, errs
	}
	prog.Vars, prog.Locks = n.vars.list, n.locks.list
	return prog, nil
}

// byteOrderMark is U+FEFF in UTF-8. Anywhere but at the start it is an
// unexpected character.
var byteOrderMark = []byte("\ufeff")

// threadCount is the n of "thread W[n]", or 1.
func threadCount(t *ThreadDecl, errs *ErrorList) (int, bool) {
	if t.Count == nil {
		return 1, true
	}
	n, ok := parseCount(t.Count.Text)
	switch {
	case !ok:
		errs.add(toPos(t.Count.Pos), "thread count %s exceeds %d", t.Count.Text, maxRepeat)
	case n == 0:
		errs.add(toPos(t.Count.Pos), "thread count must be at least 1")
		ok = false
	}
	return n, ok
}

// sizeHint says why a count of events is not a count of states.
const sizeHint = "(an access outside atomic takes three: begin, access, end)"

// compileThread builds one thread's automaton, refusing it first if it
// would exceed maxStates.
func compileThread(n *names, t *ThreadDecl, errs *ErrorList, l *limiter) *model.Automaton {
	b := newBuilder(n, errs, t, l)
	if t.Auto != nil {
		return b.automaton(t.Auto)
	}
	size := b.z.block(t.Body, false)
	if size >= maxStates { // size leaves out the initial state
		errs.add(toPos(t.Pos), "thread %s is too large: more than %d states %s", t.Name.Name, maxStates, sizeHint)
		return nil
	}
	b.reserve(size)
	init := b.newState(b.ctxs.intern(context{}))
	b.block(t.Body, init)
	if b.over {
		return nil
	}
	return b.finish(init)
}

// instances are the threads of a declaration: W[0]..W[n-1] share one
// automaton.
func instances(t *ThreadDecl, count int, a *model.Automaton) []*model.Thread {
	pos := toPos(t.Pos)
	if t.Count == nil {
		return []*model.Thread{{Name: t.Name.Name, Auto: a, Pos: pos}}
	}
	ts := make([]*model.Thread, count)
	for i := range ts {
		ts[i] = &model.Thread{Name: fmt.Sprintf("%s[%d]", t.Name.Name, i), Auto: a, Pos: pos}
	}
	return ts
}
