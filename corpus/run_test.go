package corpus

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/internal/testflag"
	"github.com/conc-dev/conc/predict"
	"github.com/conc-dev/conc/predict/all"
	"github.com/conc-dev/conc/report"
	"github.com/conc-dev/conc/report/predicted"
	"github.com/conc-dev/conc/trace"
	"github.com/conc-dev/conc/tracereport"
)

// writeCorpus writes n random traces (conc gen random --trace's
// generator) of about events events into dir, the k-th through rename
// (nil: as drawn), and returns their paths.
func writeCorpus(t *testing.T, dir string, seed uint64, n int, events int64, rename func(k int, text string) string) []string {
	t.Helper()
	var paths []string
	for k := range n {
		var b bytes.Buffer
		o := trace.GenOptions{Seed: seed*1000 + uint64(k), Events: events, Vars: 2} // few variables: groups meet
		_, err := trace.NewGen(o.Random(false)).WriteTo(&b)
		require.NoError(t, err)
		text := b.String()
		if rename != nil {
			text = rename(k, text)
		}
		p := filepath.Join(dir, fmt.Sprintf("t%03d.std", k))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		paths = append(paths, p)
	}
	return paths
}

// refGroup is a group as a trace's own JSON report has it.
type refGroup struct {
	Signature string `json:"signature"`
	Count     int64  `json:"count"`
	First     int64  `json:"first"`
}

// singleReport is what the single-trace command's JSON says of one
// trace: its verdict and its groups by kind.
func singleReport(t *testing.T, path string, o Options) (string, map[string][]refGroup) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := trace.NewReader(f, path, trace.Options{Orderings: true})
	require.NoError(t, err)
	var js bytes.Buffer
	if o.Predict {
		a, err := all.Find(context.Background(), r, predict.Options{Unbounded: true})
		require.NoError(t, err)
		defer a.Close()
		require.NoError(t, predicted.WriteAllJSON(context.Background(), &js, a, &report.Report{}))
	} else {
		rep, _, err := tracereport.Monitor(context.Background(), r, tracereport.Options{Path: path, MaxCycle: 8, Cycles: o.Cycles, Notes: &js})
		require.NoError(t, err)
		js.Reset()
		require.NoError(t, report.WriteJSON(&js, rep))
	}
	var v struct {
		Verdict string     `json:"verdict"`
		Groups  []refGroup `json:"groups"`
		Broken  []refGroup `json:"non_atomic_groups"`
		Joint   []refGroup `json:"joint"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &v))
	kinds := map[string][]refGroup{"broken": v.Broken, "joint": v.Joint}
	if o.Predict {
		kinds = map[string][]refGroup{"predicted": v.Groups}
	} else if o.Cycles {
		kinds = map[string][]refGroup{"violating": v.Groups, "joint": v.Joint}
	}
	return v.Verdict, kinds
}

// agg is a merged group by its definition.
type agg struct {
	count  int64
	traces int
	trace  string
	line   int64
}

// referenceGroups runs the single-trace command on each trace on its own
// and aggregates its groups by definition: per kind and normalised
// signature the sum of the counts, the traces that have it and the least
// (trace, first line); with each trace's verdict.
func referenceGroups(t *testing.T, paths []string, o Options) (map[[2]string]*agg, map[string]string) {
	want := map[[2]string]*agg{}
	verdicts := map[string]string{}
	for _, p := range paths {
		v, kinds := singleReport(t, p, o)
		verdicts[p] = v
		for kind, gs := range kinds {
			seen := map[string]bool{}
			for _, g := range gs {
				k := [2]string{kind, Normalise(g.Signature)}
				a := want[k]
				if a == nil {
					a = &agg{trace: p, line: g.First}
					want[k] = a
				}
				a.count += g.Count
				if !seen[k[1]] {
					seen[k[1]] = true
					a.traces++
				}
				if p < a.trace || p == a.trace && g.First < a.line {
					a.trace, a.line = p, g.First
				}
			}
		}
	}
	return want, verdicts
}

// A corpus run's summary against the single-trace command run on each
// trace on its own (referenceGroups), and each row's verdict the trace's.
// Over monitor (both answers), monitor --cycles and predict --all, with 1
// and 3 workers; the corpora have groups in several traces and groups of
// several members in a trace (asserted).
func TestRunIsEachTraceMerged(t *testing.T) {
	dir := t.TempDir()
	paths := writeCorpus(t, dir, 1, testflag.N(8, 30), 1500, nil)
	shared := 0
	for _, o := range []Options{{}, {Cycles: true}, {Predict: true, MaxStatesSet: true}} {
		want, verdicts := referenceGroups(t, paths, o)
		counted := 0
		for _, a := range want {
			if a.count > int64(a.traces) {
				counted++
			}
		}
		require.Positive(t, counted, "%s: a group with several members in a trace", o.Command())
		for _, jobs := range []int{1, 3} {
			s, err := Run(context.Background(), paths, jobs, o)
			require.NoError(t, err)
			require.Len(t, s.Traces, len(paths))
			for _, row := range s.Traces {
				require.Equal(t, verdicts[row.Name], row.Verdict, row.Name)
			}
			require.Len(t, s.Groups, len(want), o.Command())
			for _, g := range s.Groups {
				a := want[[2]string{g.Kind, g.Signature}]
				require.NotNil(t, a, "%s %s", g.Kind, g.Signature)
				require.Equal(t, agg{a.count, a.traces, a.trace, a.line}, agg{g.Count, g.Traces, g.Ex.Trace, g.Ex.Line}, g.Signature)
				if g.Traces > 1 {
					shared++
				}
			}
		}
	}
	require.Greater(t, shared, 3, "groups met in several traces")
}

// reportOf is s's summary file.
func reportOf(t *testing.T, s *Summary) string {
	var b bytes.Buffer
	require.NoError(t, Write(&b, s)) // the summary file's bytes
	return b.String()
}

// The property conc merge stands on: any split of a corpus, each part run
// on its own (any number of workers), its summary written and read back,
// and the parts merged in any order, gives the summary file of the one
// run over the whole corpus byte for byte (and so its report:
// report/merged reads nothing else).
func TestSplitsMergeToTheOneRun(t *testing.T) {
	dir := t.TempDir()
	paths := writeCorpus(t, dir, 2, 12, 300, nil)
	rng := rand.New(rand.NewPCG(2, 2))
	for _, o := range []Options{{}, {Predict: true}} {
		one, err := Run(context.Background(), paths, 2, o)
		require.NoError(t, err)
		want := reportOf(t, one)
		for range testflag.N(4, 20) {
			ps := slices.Clone(paths)
			rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
			var files []string
			for len(ps) > 0 {
				k := 1 + rng.IntN(len(ps))
				s, err := Run(context.Background(), ps[:k], 1+rng.IntN(3), o)
				require.NoError(t, err)
				f := filepath.Join(t.TempDir(), "part.json")
				var b bytes.Buffer
				require.NoError(t, Write(&b, s))
				require.NoError(t, os.WriteFile(f, b.Bytes(), 0o644))
				files = append(files, f)
				ps = ps[k:]
			}
			rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
			got, err := MergeFiles(files)
			require.NoError(t, err)
			require.Equal(t, want, reportOf(t, got))
		}
	}
}

// Object ids differ from run to run: the same traces with their
// variables renamed into objects of ids drawn per trace (RoadRunner's
// @HEX[i], conc record's pkg.T.f#N) merge into the groups of the same
// traces whose ids agree, with the same counts and traces.
func TestIDsNormalisedAcrossTraces(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	variable := regexp.MustCompile(`\((x)(\d+)\)`)
	rename := func(id func() string) func(int, string) string {
		return func(_ int, text string) string {
			ids := map[string]string{} // one object per variable of the trace
			return variable.ReplaceAllStringFunc(text, func(m string) string {
				n := variable.FindStringSubmatch(m)[2]
				if ids[n] == "" {
					ids[n] = strings.ReplaceAll(id(), "N", n)
				}
				return "(" + ids[n] + ")"
			})
		}
	}
	for _, style := range []struct{ fixed, drawn func() string }{
		{func() string { return "@1[N]" }, func() string { return fmt.Sprintf("@%X[N]", 16+rng.IntN(4000)) }},
		{func() string { return "pkg.T.fN#1" }, func() string { return fmt.Sprintf("pkg.T.fN#%d", 1+rng.IntN(50)) }},
	} {
		fixed, err := Run(context.Background(), writeCorpus(t, t.TempDir(), 4, 10, 300, rename(style.fixed)), 2, Options{})
		require.NoError(t, err)
		drawn, err := Run(context.Background(), writeCorpus(t, t.TempDir(), 4, 10, 300, rename(style.drawn)), 2, Options{})
		require.NoError(t, err)
		require.NotEmpty(t, fixed.Groups)
		require.Len(t, drawn.Groups, len(fixed.Groups))
		many := 0
		for i, g := range fixed.Groups {
			d := drawn.Groups[i]
			require.Equal(t, [4]any{g.Kind, g.Signature, g.Count, g.Traces}, [4]any{d.Kind, d.Signature, d.Count, d.Traces})
			if g.Traces > 1 {
				many++
			}
		}
		require.Positive(t, many, "a group in several traces")
	}
}

// A trace that cannot be read or checked is a row with the verdict
// "error" and the command's message; the others are checked, and the
// corpus's verdict is error.
func TestBadTraceIsAnErrorRow(t *testing.T) {
	dir := t.TempDir()
	paths := writeCorpus(t, dir, 5, 2, 200, nil)
	bad := filepath.Join(dir, "bad.std")
	require.NoError(t, os.WriteFile(bad, []byte("T1|begin\nT1|rd(x)\n"), 0o644))
	gone := filepath.Join(dir, "gone.std")
	s, err := Run(context.Background(), append(paths, bad, gone), 2, Options{})
	require.NoError(t, err)
	require.Equal(t, "error", s.Verdict())
	rows := map[string]Trace{}
	for _, r := range s.Traces {
		rows[r.Name] = r
	}
	require.Equal(t, "error", rows[bad].Verdict)
	require.True(t, strings.HasPrefix(rows[bad].Reason, bad+":2: malformed op"), rows[bad].Reason)
	require.Equal(t, Trace{Name: gone, Verdict: "error", Reason: "cannot read " + gone + ": no such file or directory"}, rows[gone])
	require.NotEqual(t, "error", rows[paths[0]].Verdict)
}

// Inputs: files as given, directories searched recursively for .std and
// .std.gz in lexical order, each trace once; "-", an unreadable name
// and a directory without traces refused.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.std", "a/c.std.gz", "a/d.txt", "a/e/f.std", "g.log"} {
		p := filepath.Join(dir, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, nil, 0o644))
	}
	j := func(f string) string { return filepath.Join(dir, f) }
	got, err := Inputs([]string{j("g.log"), dir, j("b.std")})
	require.NoError(t, err)
	require.Equal(t, []string{j("g.log"), j("a/c.std.gz"), j("a/e/f.std"), j("b.std")}, got)
	require.True(t, Several([]string{dir}))
	require.False(t, Several([]string{j("b.std")}))
	require.True(t, Several([]string{j("b.std"), j("g.log")}))
	_, err = Inputs([]string{j("b.std"), "-"})
	require.ErrorContains(t, err, "standard input (-) cannot be one of several traces")
	_, err = Inputs([]string{j("nope")})
	require.EqualError(t, err, "cannot read "+j("nope")+": no such file or directory")
	require.NoError(t, os.Mkdir(j("empty"), 0o755))
	_, err = Inputs([]string{j("empty")})
	require.EqualError(t, err, j("empty")+": no trace in it (files ending .std or .std.gz)")
	_, err = Inputs(nil)
	require.Error(t, err)
}
