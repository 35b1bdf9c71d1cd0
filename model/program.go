package model

// Class is the paper's classification of a thread or program (Section 2).
type Class uint8

const (
	StraightLine Class = iota // one path, finite
	Regular                   // finite-state
	Recursive                 // pushdown
)

var classNames = [...]string{"straight-line", "regular", "recursive"}

func (c Class) String() string { return classNames[c] }

// Thread is one thread of a program. Threads declared together (thread W[3])
// share one *Automaton, which engines may exploit (identical threads).
type Thread struct {
	Name string
	Auto *Automaton
	Pos  Pos // where the thread is declared
}

// Program is a concurrent program: threads over shared variables and locks.
type Program struct {
	File    string // for reports; may be empty
	Threads []*Thread
	Vars    []string
	Locks   []string
	// Msgs names the messages of post and wait events and the tokens of
	// give and take events (docs/spec.md §3's ordering extension; traces
	// only).
	Msgs []string
}

// ClassOf classifies an automaton: recursive if it uses the stack, straight
// line if the states reachable from Init form one finite path, else regular.
func ClassOf(a *Automaton) Class {
	if a.Pushdown() {
		return Recursive
	}
	seen := make([]bool, a.NumStates())
	for q := a.Init; ; {
		if seen[q] {
			return Regular // a cycle
		}
		seen[q] = true
		switch len(a.Out[q]) {
		case 0:
			return StraightLine
		case 1:
			q = a.Out[q][0].To
		default:
			return Regular
		}
	}
}

// Class is the largest class of the program's threads.
func (p *Program) Class() Class {
	c := StraightLine
	for _, t := range p.Threads {
		if tc := ClassOf(t.Auto); tc > c {
			c = tc
		}
	}
	return c
}

// Uses reports whether any thread has an edge with an event satisfying f.
func (p *Program) Uses(f func(Op) bool) bool {
	for _, t := range p.Threads {
		for _, es := range t.Auto.Out {
			for _, e := range es {
				if f(e.Ev.Op) {
					return true
				}
			}
		}
	}
	return false
}

// HasSync reports whether any lock, fork or join event is in play.
func (p *Program) HasSync() bool { return p.Uses(Op.IsSync) }

// HasOrderings reports an event of docs/spec.md §3's orderings (read
// locks, messages, tokens).
func (p *Program) HasOrderings() bool {
	for _, th := range p.Threads {
		for _, out := range th.Auto.Out {
			for _, e := range out {
				if e.Ev.Op.IsExtension() {
					return true
				}
			}
		}
	}
	return false
}

// ForkedBy returns, for each thread, the index of the thread that forks it, or
// -1: a forked thread may not move before its fork event (docs/spec.md §1).
func (p *Program) ForkedBy() []int {
	by := make([]int, len(p.Threads))
	for i := range by {
		by[i] = -1
	}
	for i, t := range p.Threads {
		for _, es := range t.Auto.Out {
			for _, e := range es {
				if e.Ev.Op == OpFork {
					by[e.Ev.Target] = i
				}
			}
		}
	}
	return by
}

// TargetName names an event's target for reports.
func (p *Program) TargetName(e Event) string {
	switch e.Op {
	case OpRead, OpWrite:
		return p.Vars[e.Target]
	case OpAcquire, OpRelease, OpReadAcquire, OpReadRelease:
		return p.Locks[e.Target]
	case OpFork, OpJoin:
		return p.Threads[e.Target].Name
	case OpPost, OpWait, OpGive, OpTake:
		return p.Msgs[e.Target]
	}
	return ""
}
