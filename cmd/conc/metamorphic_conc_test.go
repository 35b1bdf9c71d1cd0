package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/testkit/expect"
)

// concText is a program of gen.Random split into its top-level items
// (declaration lines and proc/thread blocks, each as its lines), which the
// transformations below rearrange. gen.Random writes one item a line, or a
// block from its "proc"/"thread" header to its closing "}" in column one.
type concText struct {
	items [][]string
}

func parseConcText(src string) concText {
	var c concText
	var cur []string
	for _, line := range strings.Split(src, "\n") {
		switch {
		case cur != nil:
			cur = append(cur, line)
			if line == "}" {
				c.items, cur = append(c.items, cur), nil
			}
		case strings.HasSuffix(line, "{"):
			cur = []string{line}
		case line != "" && !strings.HasPrefix(line, "//"):
			c.items = append(c.items, []string{line})
		}
	}
	return c
}

func (c concText) String() string {
	var b strings.Builder
	for _, it := range c.items {
		b.WriteString(strings.Join(it, "\n") + "\n")
	}
	return b.String()
}

// generated matches the names gen.Random gives variables (x), locks (m),
// procedures (P) and threads (T, and W of W[2]).
var generated = regexp.MustCompile(`\b([xmPT])(\d+)\b|\bW\[`)

// renamed renames every variable, lock, procedure and thread consistently
// to fresh names. Variables and locks share a namespace and get distinct
// names; procedures and threads may take a name a variable has, as the
// language allows.
func (c concText) renamed(rng *rand.Rand) string {
	src := c.String()
	kinds := map[string][]string{}
	for _, m := range generated.FindAllString(src, -1) {
		kinds[m[:1]] = append(kinds[m[:1]], m)
	}
	to := map[string]string{}
	assign := func(olds []string, news []string) {
		for _, o := range olds {
			if _, done := to[o]; !done {
				to[o], news = news[0], news[1:]
			}
		}
	}
	data := append(distinct(kinds["x"]), distinct(kinds["m"])...)
	assign(data, freshNames(rng, len(data)))
	assign(distinct(kinds["P"]), freshNames(rng, len(distinct(kinds["P"]))))
	threads := append(distinct(kinds["T"]), distinct(kinds["W"])...)
	assign(threads, freshNames(rng, len(threads)))
	return generated.ReplaceAllStringFunc(src, func(m string) string {
		if m == "W[" {
			return to[m] + "["
		}
		return to[m]
	})
}

func distinct(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// crlf ends every line with CR LF.
func crlf(src string) string { return strings.ReplaceAll(src, "\n", "\r\n") }

// commented adds line comments, block comments at line ends and block
// comments over several lines, some holding braces and keywords that a
// scanner which did not skip them would take for code.
func (c concText) commented(rng *rand.Rand) string {
	notes := []string{"// a note {", "/* thread Z { write x0 } */", "/* }\n} or {\n*/", "//", "/**/"}
	var b strings.Builder
	for _, it := range c.items {
		for _, line := range it {
			if rng.IntN(3) == 0 {
				b.WriteString(pick(rng, notes...) + "\n")
			}
			b.WriteString(line)
			if rng.IntN(4) == 0 {
				b.WriteString(" /* } { */")
			}
			if rng.IntN(4) == 0 {
				b.WriteString(" // }")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// reordered splits the vars and locks lines into lines of a few names each
// and shuffles all declarations, procedures and threads.
func (c concText) reordered(rng *rand.Rand) string {
	var items [][]string
	for _, it := range c.items {
		kw, list, ok := strings.Cut(it[0], " ")
		if len(it) > 1 || !ok || (kw != "vars" && kw != "locks") {
			items = append(items, it)
			continue
		}
		names := strings.Split(list, ", ")
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for len(names) > 0 {
			k := 1 + rng.IntN(len(names))
			items = append(items, []string{kw + " " + strings.Join(names[:k], ", ")})
			names = names[k:]
		}
	}
	rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return concText{items}.String()
}

// undeclared drops the vars and locks lines: every name is then declared
// by its use (the declaration rule's other side).
func (c concText) undeclared() string {
	var items [][]string
	for _, it := range c.items {
		if kw, _, _ := strings.Cut(it[0], " "); len(it) > 1 || kw != "vars" && kw != "locks" {
			items = append(items, it)
		}
	}
	return concText{items}.String()
}

// withPrivateThread adds, at a random place, a thread that touches only its
// own variable, and under lock its own lock too. With loopFree its body is
// straight-line, so that a straight-line program stays one.
func (c concText) withPrivateThread(rng *rand.Rand, lock, loopFree bool) string {
	bodies := []string{"atomic { read own_v; write own_v }", "write own_v", "atomic { write own_v } read own_v"}
	if !loopFree {
		bodies = append(bodies, "loop { atomic { read own_v; write own_v } }",
			"choose { write own_v } or { atomic { read own_v; read own_v } }")
	}
	body := pick(rng, bodies...)
	items := append([][]string{}, c.items...)
	items = append(items, []string{"vars own_v"})
	if lock {
		body = pick(rng, "sync own_l { "+body+" }", "acquire own_l; "+body+"; release own_l")
		items = append(items, []string{"locks own_l"})
	}
	at := rng.IntN(len(items) + 1)
	items = append(items[:at], append([][]string{{"thread Own { " + body + " }"}}, items[at:]...)...)
	return concText{items}.String()
}

// randomParams draws a small program's shape: small enough that brute is
// quick on straight-line ones.
func randomParams(rng *rand.Rand) gen.Params {
	bit := func() bool { return rng.IntN(2) == 0 }
	p := gen.Params{
		Threads: 1 + rng.IntN(4), EventsPerThread: rng.IntN(6), Vars: 1 + rng.IntN(3),
		Locks: rng.IntN(3), TxnLen: 1 + rng.IntN(3),
		Loops: bit(), Choice: bit(), Recursion: rng.IntN(4) == 0, Nested: bit(),
		Unary: bit(), Sync: bit(), Identical: bit(),
	}
	if p.Recursion && p.Sync {
		// The bounded search of recursive threads with locks grows fast
		// with the threads (seconds for four and a private one).
		p.Threads = min(p.Threads, 2)
	}
	return p
}

// TestMetamorphicCheck: conc check's verdict (default engine, and brute
// where it is exact: straight-line programs; --lock-edges on odd seeds) is
// unchanged by renaming, CRLF, comments, reordered or dropped declarations
// and a private thread; every witness of a variant passes the witness
// checker.
func TestMetamorphicCheck(t *testing.T) {
	for seed := 0; seed < metamorphicCases(150); seed++ {
		rng := seeded(seed)
		p := randomParams(rng)
		src := gen.Random(rng, p)
		c := parseConcText(src)
		straight := !p.Loops && !p.Choice && !p.Recursion
		variants := []struct{ name, src string }{
			{"renamed", c.renamed(rng)},
			{"crlf", crlf(src)},
			{"commented", c.commented(rng)},
			{"reordered", c.reordered(rng)},
			{"undeclared", c.undeclared()},
			// A lock makes auto choose global, which bounds its search of
			// recursive threads: keep recursive programs lock-free.
			{"private thread", c.withPrivateThread(rng, !p.Recursion && rng.IntN(2) == 0, straight)},
		}
		engs := []string{"auto"}
		if straight {
			engs = append(engs, "brute")
		}
		// The global engine's search with lock edges takes a third of a
		// second on four threads with locks: three at most.
		lockEdges := seed%2 == 1 && (p.Threads <= 3 || !p.Sync)
		for _, eng := range engs {
			ctx := fmt.Sprintf("seed %d (%s), --engine %s, --lock-edges=%v, program:\n%s", seed, p, eng, lockEdges, src)
			base := checkAnswer(t, ctx, src, eng, lockEdges)
			for _, v := range variants {
				vctx := fmt.Sprintf("%s\n%s variant:\n%s", ctx, v.name, v.src)
				if got := checkAnswer(t, vctx, v.src, eng, lockEdges); got != base {
					t.Fatalf("%s\nverdict %v, the original's %v", vctx, got, base)
				}
			}
		}
	}
}

// checkAnswer runs conc check on src (as standard input) with engine, and
// for a violation replays the witness of the same engine's in-process
// answer with the witness checker.
func checkAnswer(t *testing.T, ctx, src, engine string, lockEdges bool) answer {
	t.Helper()
	args := []string{"check", "-", "--engine", engine}
	if lockEdges {
		args = append(args, "--lock-edges")
	}
	a, o := jsonAnswer(t, ctx, src, args...)
	if a.code == exitViolation {
		var got struct {
			Engine string `json:"engine"`
		}
		require.NoError(t, json.Unmarshal([]byte(o.stdout), &got))
		replayWitness(t, ctx, src, got.Engine, engines.Options{LockEdges: lockEdges})
	}
	return a
}

// replayWitness runs engine on src in process and judges its violation with
// testkit/expect, which replays the witness against the program
// (package verify).
func replayWitness(t *testing.T, ctx, src, engine string, opts engines.Options) {
	t.Helper()
	p, err := lang.Compile("v.conc", []byte(src))
	require.NoError(t, err, ctx)
	eng, err := engines.Lookup(engine)
	require.NoError(t, err, ctx)
	res, err := check.Run(eng, p, opts, check.Deadline{D: check.DefaultTimeout})
	require.NoError(t, err, ctx)
	want := expect.Want{Verdict: engines.Violation, Options: opts}
	require.NoError(t, expect.Judge(p, eng.Name, want, res), ctx)
}
