package report

// Naming is how one report's sentences (text, DOT, HTML) name its threads
// (docs/spec.md §5). RoadRunner's threads are numbered, and "0's read"
// reads as a number, so a numeric id n reads "Tn". That is only safe
// while no thread of the report is itself named "Tn": a trace with threads
// 1 and T1 would print both as T1. A report with such a pair therefore
// prints every numeric id as it is (1, T1), so that prose names stay
// distinct: one rule for the whole report, never T0 next to a bare 1.
// Other names are always as they are; the JSON keeps the trace's names.
// The zero Naming is the "Tn" form.
type Naming struct {
	plain bool // numeric ids as they are: some thread is named "Tn"
}

// NamingOf is the naming of a report whose threads are named names.
func NamingOf(names []string) Naming {
	tn := map[string]bool{} // n for each thread named "Tn"
	for _, s := range names {
		if len(s) > 1 && s[0] == 'T' && numeric(s[1:]) {
			tn[s[1:]] = true
		}
	}
	for _, s := range names {
		if tn[s] {
			return Naming{plain: true}
		}
	}
	return Naming{}
}

// Thread is how a sentence names the thread called name.
func (n Naming) Thread(name string) string {
	if n.plain || !numeric(name) {
		return name
	}
	return "T" + name
}

// numeric reports whether s is a non-empty run of decimal digits.
func numeric(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
