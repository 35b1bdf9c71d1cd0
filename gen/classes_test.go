package gen

// preset is a named setting of Params: one class of programs Random must
// be able to draw (TestClasses).
type preset struct {
	Name   string
	Params Params
}

// classes are the presets TestClasses draws from, one per class of the
// paper (Section 2) crossed with locks (Section 4).
//
//   - straight-line: lock-free, no loop, choose or call (Theorem 1's input);
//   - regular: lock-free with loops and choose;
//   - recursive: lock-free with recursive procedures (Theorem 2);
//   - locks: straight-line with locks (Section 4's prediction problem);
//   - locks-regular: locks with loops and choose (Theorem 4).
//
// All presets allow unary and nested transactions, the constructs whose
// semantics (docs/spec.md §1) engines most easily get wrong.
func classes() []preset {
	base := Params{Threads: 2, EventsPerThread: 3, Vars: 2, TxnLen: 2, Unary: true, Nested: true}
	with := func(f func(*Params)) Params {
		p := base
		f(&p)
		return p
	}
	return []preset{
		{"straight-line", base},
		{"regular", with(func(p *Params) { p.Loops, p.Choice = true, true })},
		{"recursive", with(func(p *Params) { p.Recursion, p.Choice = true, true })},
		{"locks", with(func(p *Params) { p.Sync, p.Locks = true, 2 })},
		{"locks-regular", with(func(p *Params) { p.Sync, p.Locks, p.Loops, p.Choice = true, 1, true, true })},
	}
}
