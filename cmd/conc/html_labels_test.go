package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

var (
	edgeLabelRe = regexp.MustCompile(`<text class="(edge-label[^"]*)" x="([\d.]+)" y="([\d.]+)"[^>]*><title>[^<]*</title>([^<]*)</text>`)
	boxTitleRe  = regexp.MustCompile(`<g class="txn[^"]*"><title>[^<]*</title><rect [^>]*/><text x="(\d+)" y="(\d+)">([^<]*)</text>`)
)

// textBox is a drawn text's extent in SVG units, from its font size
// (monospace, 0.62 em a character) and its anchor.
type textBox struct{ x0, x1, y0, y1 float64 }

func newTextBox(x, y, em float64, text string, middle bool) textBox {
	w := 0.62 * em * float64(utf8.RuneCountInString(text))
	if middle {
		x -= w / 2
	}
	return textBox{x, x + w, y - em, y + 2}
}

func (a textBox) meets(b textBox) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// TestHTMLLabelsClearOfBoxTitles: on every monitor page of the trace
// excerpts (the default answer and --cycles) and every predict page, no
// arrow's label covers a transaction box's title.
func TestHTMLLabelsClearOfBoxTitles(t *testing.T) {
	traces, err := filepath.Glob("../../testdata/traces/*.std")
	require.NoError(t, err)
	var runs [][]string
	for _, tr := range traces {
		for _, extra := range [][]string{nil, {"--cycles"}, {"--lock-edges"}, {"--lock-edges", "--cycles"}} {
			runs = append(runs, append([]string{"monitor", tr}, extra...))
		}
		runs = append(runs, []string{"predict", tr})
	}
	checked := 0
	for _, args := range runs {
		o := conc(append(args, "--html", "-")...)
		for _, sec := range regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(o.stdout, -1) {
			var titles []textBox
			for _, m := range boxTitleRe.FindAllStringSubmatch(sec, -1) {
				x, _ := strconv.ParseFloat(m[1], 64)
				y, _ := strconv.ParseFloat(m[2], 64)
				titles = append(titles, newTextBox(x, y, 10, m[3], false))
			}
			for _, m := range edgeLabelRe.FindAllStringSubmatch(sec, -1) {
				x, _ := strconv.ParseFloat(m[2], 64)
				y, _ := strconv.ParseFloat(m[3], 64)
				em := 11.0
				if strings.Contains(m[1], "same-lane") {
					em = 8
				}
				l := newTextBox(x, y, em, m[4], true)
				for k, b := range titles {
					require.False(t, l.meets(b), "%s: label %q covers box title %d", strings.Join(args, " "), m[4], k)
				}
				checked++
			}
		}
	}
	require.Greater(t, checked, 20)
}

// TestHTMLLegendSpeaksAsTheText: the red box and the legend use the text
// report's word: broken (monitor's default answer, and predict, whose
// text names the transactions the run breaks by itself), violating
// (monitor --cycles), interrupted (check, whose text has no such word).
func TestHTMLLegendSpeaksAsTheText(t *testing.T) {
	sor := "../../testdata/traces/jgf-sor-reduced.std"
	for _, c := range []struct {
		args       []string
		text, word string
	}{
		{[]string{"monitor", sor, "--lock-edges"}, "broken transaction", "broken"},
		{[]string{"monitor", sor, "--lock-edges", "--cycles"}, "violating transaction", "violating"},
		{[]string{"predict", sor}, "is broken by itself", "broken"},
		{[]string{"check", "../../examples/fig1.conc"}, "conflict cycle", "interrupted"},
	} {
		name := strings.Join(c.args, " ")
		o := conc(c.args...)
		require.Contains(t, o.stdout, c.text, name)
		p := conc(append(c.args, "--html", "-")...)
		require.Contains(t, p.stdout, `<span class="key-interrupted">the red one `+c.word, name)
		require.Regexp(t, `<g class="txn[^"]* interrupted"><title>[^<]*</title><rect [^>]*/><text [^>]*>[^<]*: `+c.word+`</text>`, p.stdout, name)
		for _, other := range []string{"broken", "violating", "interrupted"} {
			if other != c.word {
				require.NotContains(t, p.stdout, "the red one "+other, name)
				require.NotContains(t, p.stdout, ": "+other+"</text>", name)
			}
		}
	}
}
