package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w
}

// TestLabSweep: the lab answers conc bench's table, fits and SVG plot;
// the states of chain grow with n for global (a deterministic count).
func TestLabSweep(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain})
	w := get(t, h, "/api/lab?family=chain&engines=profile,global&sizes=1,2,4,8&metric=states")
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var a labAnswer
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &a))
	require.Equal(t, "chain", a.Family)
	require.Equal(t, "unary writes of z per thread", a.N)
	require.Contains(t, a.Table, "violation")
	require.Regexp(t, `global\s+states ~ n\^[0-9.]+ +\(k=3, 4 points`, a.Fits)
	require.Contains(t, a.SVG, "<svg")
	// Titled and labelled as conc bench --plot titles and labels it.
	require.Contains(t, a.SVG, ">chain: profile, global</text>")
	require.Contains(t, a.SVG, ">n = unary writes of z per thread</text>")
}

// TestLabDefaultsToStates: without a metric the lab plots the engine's
// counted work, exact however loaded the server is, with each engine's
// times beside it as a second series.
func TestLabDefaultsToStates(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain})
	w := get(t, h, "/api/lab?family=chain&engines=global&sizes=1,2,4,8")
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var a labAnswer
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &a))
	require.Contains(t, a.SVG, ">states; time in µs, dotted</text>")
	require.Contains(t, a.SVG, ">global: n^", "the states' fit")
	require.Contains(t, a.SVG, ">global time: ", "the times, a second series")
	w = get(t, h, "/api/lab?family=chain&engines=global&sizes=1,2,4,8&metric=time")
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &a))
	require.Contains(t, a.SVG, ">time (ms)</text>")
}

// TestLabNothingToDraw: a sweep whose every decision timed out answers
// 200 with its table, and a plot that says why it is empty.
func TestLabNothingToDraw(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain, Lab: LabLimits{PerDecision: time.Nanosecond}})
	w := get(t, h, "/api/lab?family=chain&engines=global,profile&sizes=64")
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var a labAnswer
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &a))
	require.Regexp(t, `(?m)^ +global +64 +3 +3 +timeout `, a.Table)
	require.Regexp(t, `(?m)^ +profile +64 +3 +3 +timeout `, a.Table)
	require.Contains(t, a.SVG, ">nothing to plot: no decision finished</text>")
}

// TestLabBounded: a sweep cannot ask for more than the limits allow.
func TestLabBounded(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain, Lab: LabLimits{MaxSizes: 3, MaxSize: 16, MaxThreads: 4}})
	for q, want := range map[string]string{
		"family=nope&engines=profile":                  "cannot be swept",
		"family=chain&engines=":                        "at least one engine",
		"family=chain&engines=quantum":                 "unknown engine",
		"family=chain&engines=profile&sizes=1,2,3,4":   "at most 3 values",
		"family=chain&engines=profile&sizes=1,17":      `"17" is not a count from 1 to 16`,
		"family=chain&engines=profile&threads=5":       `"5" is not a count from 1 to 4`,
		"family=chain&engines=profile&threads=2,3,4,2": "at most 3 values",
		"family=np&engines=profile&threads=2":          "does not apply",
		"family=chain&engines=profile&metric=joules":   "want states or time",
		"family=chain&engines=profile&size=4":          `unknown query parameter "size"`,
	} {
		w := get(t, h, "/api/lab?"+q)
		require.Equal(t, http.StatusBadRequest, w.Code, q)
		require.Contains(t, errorsOf(t, w)[0].Message, want, q)
	}
}

// TestLabFamilies: every family bench sweeps is offered, with default
// sizes cut to the limits.
func TestLabFamilies(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain, Lab: LabLimits{MaxSizes: 3, MaxSize: 16}})
	var fams []labFamily
	require.NoError(t, json.Unmarshal(get(t, h, "/api/lab/families").Body.Bytes(), &fams))
	names := map[string]bool{}
	for _, f := range fams {
		names[f.Name] = true
		require.LessOrEqual(t, len(f.Sizes), 3, f.Name)
		for _, n := range f.Sizes {
			require.LessOrEqual(t, n, 16, f.Name)
		}
	}
	require.True(t, names["chain"] && names["np"] && names["locked"], "%v", names)
}

// TestPageAndExamples: the page and its script come from the binary, and
// the examples open with the paper's Figure 1.
func TestPageAndExamples(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain})
	w := get(t, h, "/")
	require.Equal(t, http.StatusOK, w.Code)
	require.Contains(t, w.Body.String(), `<script src="app.js"`)
	require.Equal(t, http.StatusOK, get(t, h, "/app.js").Code)
	var ex []Example
	require.NoError(t, json.Unmarshal(get(t, h, "/api/examples").Body.Bytes(), &ex))
	require.GreaterOrEqual(t, len(ex), len(firstExamples))
	for i, name := range firstExamples {
		require.Equal(t, name, ex[i].Name)
	}
	for _, e := range ex {
		require.True(t, strings.HasSuffix(e.Name, ".conc"))
		_, err := compileOnly(context.Background(), []byte(e.Source), Query{Name: e.Name})
		require.NoError(t, err, e.Name)
	}
}
