package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/check"
	"github.com/conc-dev/conc/gen"
	"github.com/conc-dev/conc/serve"
)

// playground is conc serve's handler with the CLI's pipeline, as runServe
// builds it.
func playground(f serveFlags) http.Handler { return serve.New(playConfig(f)) }

// examplesPlayground is one playground for the tests that check every
// example, the API's and the browser's: the browser's page then meets
// the answers the API test had the server decide (remembered, as a
// classroom's second check of an example is) instead of deciding each
// example again. Its time limit is conc check's default, as the CLI it is
// compared with has: with the server's 10 s, recursive_counter.conc (2 s
// alone, a search to --max-stack) timed out under a loaded go test ./...
// and its unknown's counts differed from the CLI's.
var examplesPlayground = sync.OnceValue(func() http.Handler { return playground(serveFlags{timeout: check.DefaultTimeout}) })

func postProgram(t *testing.T, h http.Handler, path, query, src string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path+"?"+query, strings.NewReader(src)))
	return w
}

// withoutMillis is a JSON report with its one clock reading, stats.millis,
// zeroed: everything else of a check is deterministic.
func withoutMillis(t *testing.T, js string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(js), &m), js)
	if st, ok := m["stats"].(map[string]any); ok {
		st["millis"] = 0
	}
	return m
}

// cliChecks remember conc check's outcomes on the examples: the API test
// and the browser test compare with the same runs instead of deciding
// each example twice more (the engines are deterministic; a check that
// ended in unknown is not kept).
var cliChecks sync.Map // strings.Join(args, " ") -> outcome

// cliCheck is conc check --format json on path with flags (relative to
// examples/, where the tests that use it run).
func cliCheck(path string, flags ...string) outcome {
	args := append([]string{"check", path, "--format", "json"}, flags...)
	key := strings.Join(args, " ")
	if o, ok := cliChecks.Load(key); ok {
		return o.(outcome)
	}
	o := conc(args...)
	if o.code == exitSerializable || o.code == exitViolation {
		cliChecks.Store(key, o)
	}
	return o
}

// TestServeCheckIsCheckJSON: POST /api/check answers, for every example
// (and each --lock-edges want line), exactly what conc check --format json
// prints, and the check's exit code's verdict.
func TestServeCheckIsCheckJSON(t *testing.T) {
	exs, err := serve.Examples()
	require.NoError(t, err)
	require.NotEmpty(t, exs)
	t.Chdir("../../examples") // the CLI and the API name each file alike
	h := examplesPlayground()
	for _, ex := range exs {
		src, err := os.ReadFile(ex.Name)
		require.NoError(t, err)
		require.Equal(t, string(src), ex.Source, "the embedded example is the file")
		flags := [][]string{nil}
		if strings.Contains(ex.Source, "// want serializable --lock-edges") ||
			strings.Contains(ex.Source, "// want violation --lock-edges") {
			flags = append(flags, []string{"--lock-edges"})
		}
		for _, fl := range flags {
			t.Run(ex.Name+strings.Join(fl, ""), func(t *testing.T) {
				o := cliCheck(ex.Name, fl...)
				require.NotEqual(t, exitUsage, o.code, o.stderr)
				q := "name=" + ex.Name
				if len(fl) > 0 {
					q += "&lock-edges=true"
				}
				w := postProgram(t, h, "/api/check", q, ex.Source)
				require.Equal(t, http.StatusOK, w.Code, w.Body.String())
				require.Equal(t, "application/json; charset=utf-8", w.Header().Get("Content-Type"))
				require.Equal(t, withoutMillis(t, o.stdout), withoutMillis(t, w.Body.String()))
			})
		}
	}
}

// apiErrors decodes a 400's error list.
func apiErrors(t *testing.T, w *httptest.ResponseRecorder) []apiErr {
	t.Helper()
	var b struct{ Errors []apiErr }
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &b), w.Body.String())
	require.NotEmpty(t, b.Errors)
	return b.Errors
}

type apiErr struct {
	Pos       string
	Line, Col int
	Message   string
}

// TestServeStaticErrors: a bad program is 400 with conc check's static
// errors, each with its position and message.
func TestServeStaticErrors(t *testing.T) {
	src := "thread A { atomic { read x } }\nthread B { atomic { acquire m; frob y } }\nthread A { }\n"
	path := file(t, "bad.conc", src)
	o := conc("check", path)
	require.Equal(t, exitUsage, o.code)
	w := postProgram(t, playground(serveFlags{}), "/api/check", "name="+url.QueryEscape(path), src)
	require.Equal(t, http.StatusBadRequest, w.Code, w.Body.String())
	var lines []string
	for _, e := range apiErrors(t, w) {
		require.Positive(t, e.Line)
		require.Positive(t, e.Col)
		require.Equal(t, fmt.Sprintf("%s:%d:%d", path, e.Line, e.Col), e.Pos)
		lines = append(lines, e.Pos+": "+e.Message)
	}
	// The CLI prints the same list, one "file:line:col: reason" a line.
	require.Equal(t, o.stderr, strings.Join(lines, "\n")+"\n")
}

// TestServeTimeoutIsUnknown: a check past the request's time limit
// answers unknown, as conc check --timeout does, word for word.
func TestServeTimeoutIsUnknown(t *testing.T) {
	// The global engine's product of four locked threads: it watches its
	// context, so no abandoned search outlives the test.
	src := gen.Locked(4, 60, 1)
	path := file(t, "locked.conc", src)
	o := conc("check", path, "--format", "json", "--timeout", "200ms")
	require.Equal(t, exitUnknown, o.code, o.stderr)
	w := postProgram(t, playground(serveFlags{}), "/api/check", "timeout=200ms&name="+path, src)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	got := withoutMillis(t, w.Body.String())
	require.Equal(t, "unknown", got["verdict"])
	require.Equal(t, "timeout: no answer within 200ms (--timeout)", got["reason"])
	want := withoutMillis(t, o.stdout)
	require.Contains(t, got, "stats")
	delete(want, "stats") // how far each got in 200 ms
	delete(got, "stats")
	require.Equal(t, want, got)

	// The server's own limit holds when the query asks for more.
	w = postProgram(t, playground(serveFlags{timeout: 200 * time.Millisecond}), "/api/check", "timeout=1h", src)
	require.Equal(t, "unknown", withoutMillis(t, w.Body.String())["verdict"], w.Body.String())
}

// TestServeUsageError: a query conc check refuses is 400 with its message.
func TestServeUsageError(t *testing.T) {
	src, err := os.ReadFile("../../examples/counter_locked.conc")
	require.NoError(t, err)
	h := playground(serveFlags{})
	for q, want := range map[string]string{
		"engine=profile": "--engine profile cannot decide a program with locks",
		"engine=quantum": `--engine "quantum": want auto, profile, global or brute`,
	} {
		for _, path := range []string{"/api/check", "/api/explain", "/api/timeline"} {
			w := postProgram(t, h, path, q, string(src))
			require.Equal(t, http.StatusBadRequest, w.Code, path+"?"+q)
			require.Contains(t, apiErrors(t, w)[0].Message, want, path+"?"+q)
		}
	}
}

// TestServeExplain: the playground says why a program with locks needs
// the global engine's product, and lists conc profiles' text.
func TestServeExplain(t *testing.T) {
	h := playground(serveFlags{})
	for name, want := range map[string]string{
		"counter_locked.conc": "product of the threads with the lock owners (Theorem 4)",
		"fig1.conc":           "from each thread's profiles alone",
	} {
		path := "../../examples/" + name
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		w := postProgram(t, h, "/api/explain", "", string(src))
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		var ex serve.Explanation
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &ex))
		require.Contains(t, ex.Why, want, name)
		o := conc("profiles", path)
		require.Equal(t, 0, o.code, o.stderr)
		require.Equal(t, o.stdout, ex.Profiles, name)
		require.Equal(t, withoutMillis(t, conc("check", path, "--format", "json").stdout)["engine"], ex.Engine)
	}
}

// TestServeTimeline: the witness page of a violation is conc check
// --html's: its cycle's arrows are the JSON's cycle pairs.
func TestServeTimeline(t *testing.T) {
	src, err := os.ReadFile("../../examples/fig1.conc")
	require.NoError(t, err)
	w := postProgram(t, playground(serveFlags{}), "/api/timeline", "name=fig1.conc", string(src))
	require.Equal(t, http.StatusOK, w.Code)
	require.Equal(t, "text/html; charset=utf-8", w.Header().Get("Content-Type"))
	page := w.Body.String()
	require.Contains(t, page, "<h3>Conflict cycle</h3>")
	cli := cliAnswer(t, "../../examples/fig1.conc")
	require.NotEmpty(t, cli.Witness.Cycle)
	for _, c := range cli.Witness.Cycle {
		require.Contains(t, page, fmt.Sprintf(`data-edge="%d-%d"`, c.From, c.To))
	}
}

// TestServeRefusesPublicAddr: conc serve listens on loopback unless told
// otherwise.
func TestServeRefusesPublicAddr(t *testing.T) {
	for _, addr := range []string{":8080", "0.0.0.0:8080", "192.168.1.5:8080"} {
		o := conc("serve", "--addr", addr)
		require.Equal(t, exitUsage, o.code, addr)
		require.Contains(t, o.stderr, "pass --public", addr)
	}
	o := conc("serve", "--addr", "8080")
	require.Equal(t, exitUsage, o.code)
	require.Contains(t, o.stderr, "want HOST:PORT")
}

// TestServeClientGoneEndsCheck: a check runs under its request's context,
// so a client that went away does not hold a slot until the time limit
// (an hour here): the search stops at once, and its answer, an error,
// goes to no one. The engine only waits for its context.
func TestServeClientGoneEndsCheck(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "/api/check?engine="+waiter.Name, strings.NewReader(lostUpdate))
	w := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		playground(serveFlags{timeout: time.Hour}).ServeHTTP(w, req.WithContext(ctx))
		close(done)
	}()
	select { // a bound against a hang, not a timing: the limit is an hour
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the check outlived its client")
	}
	require.Equal(t, http.StatusInternalServerError, w.Code, w.Body.String())
	require.Equal(t, "the check was abandoned: the client went away (context canceled)", apiErrors(t, w)[0].Message)
}

// TestServeUnexpectedArgument: serve takes flags only; an argument is a
// usage error naming it, before anything listens.
func TestServeUnexpectedArgument(t *testing.T) {
	o := conc("serve", "extra")
	require.Equal(t, exitUsage, o.code)
	require.Equal(t, "conc: serve: unexpected argument \"extra\"; run 'conc serve --help'\n", o.stderr)
}
