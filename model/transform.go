package model

// DropSync returns a copy of p whose lock, fork and join events are epsilon
// moves: the paper's first prediction model, which ignores synchronisation
// (--ignore-sync). Threads that shared an automaton still share its copy.
func DropSync(p *Program) *Program {
	q := *p
	q.Threads = make([]*Thread, len(p.Threads))
	copies := map[*Automaton]*Automaton{}
	for i, t := range p.Threads {
		a, ok := copies[t.Auto]
		if !ok {
			a = dropSyncAuto(t.Auto)
			copies[t.Auto] = a
		}
		nt := *t
		nt.Auto = a
		q.Threads[i] = &nt
	}
	return &q
}

func dropSyncAuto(a *Automaton) *Automaton {
	b := *a
	b.Out = make([][]Edge, len(a.Out))
	b.Held = make([][]int32, len(a.Out))
	for q, es := range a.Out {
		b.Out[q] = append([]Edge(nil), es...)
		for i := range b.Out[q] {
			if b.Out[q][i].Ev.Op.IsSync() {
				b.Out[q][i].Ev = Event{Op: OpSkip, Target: -1, Pos: b.Out[q][i].Ev.Pos}
			}
		}
	}
	return &b
}
