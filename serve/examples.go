package serve

import (
	"io/fs"
	"net/http"
	"slices"
	"strings"

	"github.com/conc-dev/conc/examples"
)

// Example is one preloaded program of GET /api/examples.
type Example struct {
	Name   string `json:"name"` // its file name, e.g. fig1.conc
	Source string `json:"source"`
}

// firstExamples open the list in the order a course meets them: the
// paper's Figure 1, the bank, locks, recursion; the rest follow by name.
var firstExamples = []string{"fig1.conc", "bank.conc", "counter_locked.conc", "lock_edges.conc",
	"workers_locked.conc", "recursive.conc", "recursive_locked.conc"}

// Examples are the catalogue's programs (package examples), embedded.
func Examples() ([]Example, error) {
	names, err := fs.Glob(examples.Files, "*.conc")
	if err != nil {
		return nil, err
	}
	rank := func(n string) int {
		if i := slices.Index(firstExamples, n); i >= 0 {
			return i
		}
		return len(firstExamples)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	out := make([]Example, 0, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(examples.Files, n)
		if err != nil {
			return nil, err
		}
		out = append(out, Example{Name: n, Source: string(b)})
	}
	return out, nil
}

// examples is GET /api/examples.
func (s *server) examples(w http.ResponseWriter, _ *http.Request) {
	ex, err := Examples()
	if err != nil {
		writeErrors(w, http.StatusInternalServerError, apiError{Message: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, ex)
}
