package main

import (
	"encoding/json"
	stdhtml "html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHTMLFile: --html writes the page for each command (docs/spec.md §5
// Other outputs) beside the report on standard output; "-" puts the page
// on standard output and the report on standard error.
func TestHTMLFile(t *testing.T) {
	dir := t.TempDir()
	tr := file(t, "r.std", reorderTrace)
	for _, args := range [][]string{
		{"check", file(t, "bank.conc", lostUpdate)},
		{"predict", tr},
		{"monitor", file(t, "lost.std", lostUpdateTrace)},
	} {
		page := filepath.Join(dir, args[0]+".html")
		o := conc(append(args, "--html", page)...)
		require.Equal(t, exitViolation, o.code, o.stderr)
		require.True(t, strings.HasPrefix(o.stdout, "violation\n"), o.stdout)
		b, err := os.ReadFile(page)
		require.NoError(t, err)
		require.Contains(t, string(b), `<span id="verdict" class="verdict violation">violation</span>`)
		require.Contains(t, string(b), `data-edge="`, args[0])

		d := conc(append(args, "--html", "-", "--format", "json")...)
		require.Equal(t, exitViolation, d.code, d.stderr)
		millis := regexp.MustCompile(`\d+ ms</p>`) // the summary's timing differs
		require.Equal(t, millis.ReplaceAllString(string(b), ""), millis.ReplaceAllString(d.stdout, ""),
			"%s: the page on standard output", args[0])
		require.Contains(t, d.stderr, `"verdict": "violation"`)
	}
	ok := conc("check", file(t, "ok.conc", "vars x\nthread A { read x }\n"), "--html", "-")
	require.Equal(t, exitSerializable, ok.code, ok.stderr)
	require.Contains(t, ok.stdout, `class="verdict serializable">serializable<`)
	require.NotContains(t, ok.stdout, "<svg")
}

// TestHTMLSharesNoOutput: --html cannot share a file, or standard output,
// with --dot or --witness-out.
func TestHTMLSharesNoOutput(t *testing.T) {
	tr := file(t, "r.std", reorderTrace)
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", tr, "--html", out, "--dot", out}, "--dot and --html name the same file"},
		{[]string{"predict", tr, "--html", out, "--witness-out", out}, "--html and --witness-out name the same file"},
		{[]string{"predict", tr, "--html", "-", "--witness-out", "-"}, "--html - and --witness-out -: only one output can go to standard output"},
		{[]string{"monitor", tr, "--html", "-", "--dot", "-"}, "--dot - and --html -: only one output can go to standard output"},
	} {
		o := conc(c.args...)
		require.Equal(t, exitUsage, o.code, "%v", c.args)
		require.Equal(t, "conc: "+c.args[0]+": "+c.want+"\n", o.stderr)
		_, err := os.Stat(out)
		require.True(t, os.IsNotExist(err), "nothing written")
	}
	t.Chdir(filepath.Dir(out))
	o := conc("check", file(t, "b.conc", lostUpdate), "--dot", out, "--html", "./out")
	require.Equal(t, exitUsage, o.code)
	require.Equal(t, "conc: check: --dot and --html name the same file\n", o.stderr)
}

// TestHTMLMatchesJSONWithoutBrowser holds the pages' markup to the JSON
// as TestHTMLInBrowser holds the rendered pages, read with regular
// expressions: it runs where Chromium is not installed.
func TestHTMLMatchesJSONWithoutBrowser(t *testing.T) {
	for _, p := range htmlPages(t) {
		name := strings.Join(p.args, " ")
		o := conc(append(p.args, "--format", "json", "--html", "-")...)
		var want drawnJSON
		require.NoError(t, json.Unmarshal([]byte(o.stderr), &want), name)
		got := parseDrawn(o.stdout)
		require.Equal(t, want.Verdict, got.Verdict, name)
		if p.args[0] == "monitor" {
			checkDrawnGroups(t, name, want, got)
		} else {
			checkDrawnWitness(t, name, want, got)
		}
	}
}

var (
	verdictRe = regexp.MustCompile(`<span id="verdict"[^>]*>([^<]*)<`)
	sectionRe = regexp.MustCompile(`(?s)<section class="(witness|group)[ "].*?</svg>`)
	markRe    = regexp.MustCompile(`<g class="event( cycle)?[^"]*" data-event="(\d+)"><title>([^<]*)</title>`)
	edgeRe    = regexp.MustCompile(`data-edge="([^"]*)"`)
)

// parseDrawn reads a page's markup as the browser test reads the page
// (every mark counted as drawn: only a browser measures).
func parseDrawn(page string) drawnPage {
	var d drawnPage
	if m := verdictRe.FindStringSubmatch(page); m != nil {
		d.Verdict = m[1]
	}
	for _, sec := range sectionRe.FindAllStringSubmatch(page, -1) {
		var f drawnFigure
		for _, m := range markRe.FindAllStringSubmatch(sec[0], -1) {
			i, _ := strconv.Atoi(m[2])
			f.Marks = append(f.Marks, drawnMark{I: i, Cycle: m[1] != "", Title: stdhtml.UnescapeString(m[3]), Width: 1})
		}
		for _, m := range edgeRe.FindAllStringSubmatch(sec[0], -1) {
			f.Edges = append(f.Edges, m[1])
		}
		if sec[1] == "witness" {
			d.Witness = &f
		} else {
			d.Groups = append(d.Groups, f)
		}
	}
	return d
}
