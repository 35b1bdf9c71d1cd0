package merged

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/conc-dev/conc/corpus"
)

// ordered is s's groups in the order the report lists them: those met
// in most traces first, then the largest, then by kind and signature.
func ordered(s *corpus.Summary) []corpus.Group {
	gs := slices.Clone(s.Groups)
	slices.SortFunc(gs, func(a, b corpus.Group) int {
		return cmp.Or(cmp.Compare(b.Traces, a.Traces), cmp.Compare(b.Count, a.Count),
			cmp.Compare(slices.Index(corpus.Kinds, a.Kind), slices.Index(corpus.Kinds, b.Kind)),
			cmp.Compare(a.Signature, b.Signature))
	})
	return gs
}

// tally counts s's traces by verdict, in corpus.Verdicts' order.
func tally(s *corpus.Summary) []int {
	n := make([]int, len(corpus.Verdicts))
	for _, t := range s.Traces {
		n[slices.Index(corpus.Verdicts, t.Verdict)]++
	}
	return n
}

// events adds up the traces' events.
func events(s *corpus.Summary) int64 {
	var n int64
	for _, t := range s.Traces {
		n += t.Events
	}
	return n
}

// plural is "1 trace", "2 traces".
func plural[N int | int64](n N, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
