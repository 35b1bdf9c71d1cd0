package cliflag

import (
	"flag"
	"strings"
)

// nearest is the candidate closest to typo in edit distance, if it is
// close enough to be the likely intent (at most 2 edits, and fewer than
// half of typo's letters), else "".
func nearest(typo string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(typo, c); d < bestD && 2*d < len(typo) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b (bytes: names are
// ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// DidYouMean is " (did you mean X?)" for the nearest of candidates, or "".
func DidYouMean(typo string, candidates []string, prefix string) string {
	if n := nearest(typo, candidates); n != "" {
		return " (did you mean " + prefix + n + "?)"
	}
	return ""
}

// flagNames are fs's flag names, with help.
func flagNames(fs *flag.FlagSet) []string {
	names := []string{"help"}
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// undefinedFlag is the name in package flag's "flag provided but not
// defined: -name", or "".
func undefinedFlag(msg string) string {
	const p = "flag provided but not defined: -"
	if !strings.HasPrefix(msg, p) {
		return ""
	}
	return strings.TrimLeft(strings.TrimPrefix(msg, p), "-")
}
