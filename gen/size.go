package gen

import (
	"fmt"
	"strconv"
)

// MaxBytes caps the text a family may write. Generators build the whole
// program in memory, several times the size of its text, so a request
// such as 100,000 threads of 1,000 accesses (about 4 GB of text) must be
// refused before it is drawn rather than grow until the machine kills it;
// no engine would decide a program of this size anyway.
const MaxBytes = 64 << 20

// CheckBytes refuses an instance whose estimated text is over MaxBytes,
// saying both sizes and which flags set it.
func CheckBytes(estimate float64, flags string) error {
	if estimate <= MaxBytes {
		return nil
	}
	return fmt.Errorf("the program would be about %s, over the cap of %s: lower %s",
		humanBytes(estimate), humanBytes(MaxBytes), flags)
}

func humanBytes(b float64) string {
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if b < 1024 || u == "TiB" {
			return strconv.FormatFloat(b, 'g', 3, 64) + " " + u
		}
		b /= 1024
	}
	panic("unreachable")
}

// digits is the length of n in decimal: names such as x123 grow with it.
func digits(n int) float64 { return float64(len(strconv.Itoa(max(n, 0)))) }

// The estimates below are of the text each generator writes, measured on
// instances of every shape (TestBytesEstimates checks them against the
// real text); a line of text costs about 20 to 40 bytes.

// randomBytes: each access is a line with its share of the blocks around
// it (choose and sync add the most), the procedures of Recursion make
// about one more thread, and the declarations list every name.
func randomBytes(p Params) float64 {
	p = p.withDefaults()
	perAccess := 40 + digits(p.Vars)
	if p.Sync {
		perAccess += 16 + digits(p.Locks)
	}
	if p.Choice {
		perAccess += 16
	}
	threads := float64(p.Threads)
	if p.Recursion {
		threads++
	}
	decls := float64(p.Vars)*(3+digits(p.Vars)) + float64(p.Locks)*(3+digits(p.Locks))
	return 100 + threads*(20+float64(p.EventsPerThread)*perAccess) + decls
}

// npBytes: a thread of about 150 bytes for S, each literal occurrence and
// each variable's two routes; a junction each; the formula in the header.
func npBytes(vars, clauses, occurrences int) float64 {
	d := digits(max(vars, clauses))
	threads := float64(1 + occurrences + 2*vars)
	junctions := float64(vars + clauses + occurrences + 1)
	formula := float64(clauses)*8 + float64(occurrences)*(2+d)
	return 200 + threads*(150+4*d) + junctions*(3+d) + formula
}

// NPBytes estimates the text of NP(f).
func NPBytes(f CNF) float64 {
	occ := 0
	for _, c := range f.Clauses {
		occ += len(c)
	}
	return npBytes(f.Vars, len(f.Clauses), occ)
}

// w1Bytes bounds the text of the w1 program of k automata of the given
// states over the given letters: each thread has at most states x (k+1)
// slots x (letters+1) last letters main states (the leader m+1 times as
// many, for its count), each with at most letters+1 moves of letters+5
// lines; setup touches the k G locks; the header lists the automata.
func w1Bytes(k, states, letters, m int) float64 {
	line := 30 + 3*digits(max(states, k, letters, m))
	mains := float64(states) * float64(k+1) * float64(letters+1)
	perMain := float64(letters+1) * float64(letters+5) * line
	threads := float64(k) + float64(m) // the leader counts m+1 times
	locks := float64(2*k+1+(k-1)*(letters+1)) * (5 + 2*digits(max(k, letters)))
	header := float64(k) * float64(states) * (float64(letters)*(8+2*digits(states)) + 20)
	return 300 + threads*mains*perMain + float64(k)*float64(2*k)*line + locks + header
}
