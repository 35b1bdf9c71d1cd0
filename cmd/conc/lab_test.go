package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/bench"
	"github.com/conc-dev/conc/internal/testflag"
)

// labExperiment is one experiment of scripts/lab.sh and its region of
// docs/complexity.md.
type labExperiment struct {
	name, flags string
	region      string // the text between the markers
}

// labExperiments reads scripts/lab.sh's experiments and the document's
// regions for them.
func labExperiments(t *testing.T) (doc string, exps []labExperiment) {
	script, err := os.ReadFile("../../scripts/lab.sh")
	require.NoError(t, err)
	b, err := os.ReadFile("../../docs/complexity.md")
	require.NoError(t, err)
	doc = string(b)
	_, list, ok := strings.Cut(string(script), "\nexperiments='\n")
	require.True(t, ok, "scripts/lab.sh has no experiments list")
	list, _, _ = strings.Cut(list, "'\n")
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		name, flags, _ := strings.Cut(line, " ")
		begin := regexp.MustCompile(`(?m)^<!-- lab ` + regexp.QuoteMeta(name) + ` begin[^\n]*-->\n`)
		loc := begin.FindStringIndex(doc)
		require.NotNil(t, loc, "docs/complexity.md has no region for experiment %s; run scripts/lab.sh", name)
		region, _, ok := strings.Cut(doc[loc[1]:], "<!-- lab "+name+" end -->")
		require.True(t, ok, "the region of %s has no end marker", name)
		exps = append(exps, labExperiment{name: name, flags: flags, region: region})
	}
	require.NotEmpty(t, exps)
	return doc, exps
}

// TestLabDocument: every measurement in docs/complexity.md is one that
// scripts/lab.sh makes, as it makes it. Each experiment's region names the
// script, the conc bench command the script runs now and the machine; its
// fits and its plot are what conc bench --markdown makes from its table
// (so a change to the fits or plots shows here until the document is
// regenerated); and no table or plot of the document lies outside them.
func TestLabDocument(t *testing.T) {
	doc, exps := labExperiments(t)
	plots := map[string]bool{}
	outside := doc
	for _, x := range exps {
		t.Run(x.name, func(t *testing.T) {
			checkLabRegion(t, x)
		})
		plots[x.name+".svg"] = true
		outside = strings.Replace(outside, x.region, "", 1)
	}
	require.NotContains(t, outside, "| engine | n | k |", "a table of measurements outside the regions scripts/lab.sh writes")
	require.NotRegexp(t, `\]\(plots/`, outside, "a plot outside the regions scripts/lab.sh writes")
	files, err := filepath.Glob("../../docs/plots/*")
	require.NoError(t, err)
	for _, f := range files {
		require.True(t, plots[filepath.Base(f)], "docs/plots/%s is made by no experiment of scripts/lab.sh", filepath.Base(f))
	}
}

// labMadeBy is the line that opens a region.
var labMadeBy = regexp.MustCompile("^!\\[([^]]+)\\]\\(plots/([^)]+)\\)\n\nRegenerate with `scripts/lab.sh ([^`]+)`\\. " +
	"(Made by `(conc bench [^`]+)` on (.+, \\d+ cores, go\\S+ \\S+, \\d{4}-\\d\\d-\\d\\d)\\.\n(?s:.*))$")

func checkLabRegion(t *testing.T, x labExperiment) {
	m := labMadeBy.FindStringSubmatch(x.region)
	require.NotNil(t, m, "the region of %s does not open with its plot and the made-by line:\n%s", x.name, x.region)
	require.Equal(t, []string{x.name, x.name + ".svg", x.name}, m[1:4])
	output, command, machine := m[4], m[5], m[6]
	want := "conc bench " + x.flags + " --plot docs/plots/" + x.name + ".svg --markdown"
	require.Equal(t, want, command, "the document was made by another command than scripts/lab.sh's; run scripts/lab.sh %s", x.name)
	points, err := bench.ParseTable(output)
	require.NoError(t, err)
	var f benchFlags
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	f.register(fs)
	require.NoError(t, fs.Parse(strings.Fields(command)[2:]))
	spec, format, err := f.spec()
	require.NoError(t, err)
	f.plot = filepath.Join(t.TempDir(), x.name+".svg")
	var again strings.Builder
	require.NoError(t, f.report(&again, spec, format, points, command, machine))
	require.Equal(t, output, again.String(), "conc bench --markdown prints other fits from this table; run scripts/lab.sh %s", x.name)
	drawn, err := os.ReadFile(f.plot)
	require.NoError(t, err)
	kept, err := os.ReadFile("../../docs/plots/" + x.name + ".svg")
	require.NoError(t, err)
	require.True(t, string(drawn) == string(kept), "docs/plots/%s.svg is not the plot of its table; run scripts/lab.sh %s", x.name, x.name)
}

// TestLabStatesHold decides again the cheapest points of the document's
// tables and compares verdicts and state counts, which, unlike times, do
// not depend on the machine: an engine whose counts changed fails here
// until scripts/lab.sh has regenerated the document.
func TestLabStatesHold(t *testing.T) {
	_, exps := labExperiments(t)
	type job struct {
		x  labExperiment
		pt bench.Point
	}
	var jobs []job
	for _, x := range exps {
		m := labMadeBy.FindStringSubmatch(x.region)
		require.NotNil(t, m, x.name)
		points, err := bench.ParseTable(m[4])
		require.NoError(t, err)
		for _, p := range points {
			if p.Measured() {
				jobs = append(jobs, job{x, p})
			}
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].pt.States < jobs[j].pt.States })
	jobs = jobs[:min(len(jobs), testflag.N(40, 60))]
	for _, j := range jobs {
		var f benchFlags
		fs := flag.NewFlagSet("bench", flag.ContinueOnError)
		f.register(fs)
		require.NoError(t, fs.Parse(strings.Fields(j.x.flags)))
		spec, _, err := f.spec()
		require.NoError(t, err)
		spec.Engines, spec.Sizes, spec.Repeat = []string{j.pt.Engine}, []int{j.pt.N}, 1
		if spec.Threads != nil {
			spec.Threads = []int{j.pt.K}
		}
		got, err := bench.Run(context.Background(), spec, nil)
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.Equal(t, j.pt.Verdict, got[0].Verdict, "%s: %s at n=%d k=%d", j.x.name, j.pt.Engine, j.pt.N, j.pt.K)
		require.Equal(t, j.pt.States, got[0].States, "%s: %s at n=%d k=%d: the states changed; run scripts/lab.sh %s", j.x.name, j.pt.Engine, j.pt.N, j.pt.K, j.x.name)
	}
}
