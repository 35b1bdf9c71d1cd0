package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/engines"
	"github.com/conc-dev/conc/lang"
	"github.com/conc-dev/conc/report"
)

// compileOnly is a Checker that compiles and answers serializable: the
// handler's own behaviour (limits, errors) is what these tests check;
// cmd/conc's serve_test checks the real pipeline.
func compileOnly(_ context.Context, src []byte, q Query) (*report.Report, error) {
	p, err := lang.Compile(q.Name, src)
	if err != nil {
		return nil, err
	}
	return report.BuildLean(p, engines.Result{Verdict: engines.Serializable, Engine: "fake"})
}

func noExplain(context.Context, []byte, Query) (*Explanation, error) { return &Explanation{}, nil }

func post(t *testing.T, h http.Handler, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
	return w
}

// errorsOf decodes an error answer.
func errorsOf(t *testing.T, w *httptest.ResponseRecorder) []apiError {
	t.Helper()
	var b struct{ Errors []apiError }
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &b), w.Body.String())
	require.NotEmpty(t, b.Errors)
	return b.Errors
}

const tiny = "thread A { atomic { read x; write x } }\nthread B { write x }\n"

func TestStaticErrorsHavePositions(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain})
	w := post(t, h, "/api/check?name=bad.conc", "thread A { read x;\nthread B { frob y }\n")
	require.Equal(t, http.StatusBadRequest, w.Code)
	for _, e := range errorsOf(t, w) {
		require.Greater(t, e.Line, 0, e.Message)
		require.Greater(t, e.Col, 0, e.Message)
		require.True(t, strings.HasPrefix(e.Pos, fmt.Sprintf("bad.conc:%d:%d", e.Line, e.Col)), e.Pos)
		require.NotEmpty(t, e.Message)
	}
}

func TestOversizeBodyRefused(t *testing.T) {
	calls := 0
	check := func(_ context.Context, src []byte, q Query) (*report.Report, error) {
		calls++
		return compileOnly(context.Background(), src, q)
	}
	h := New(Config{Check: check, Explain: noExplain, MaxBody: 1024})
	w := post(t, h, "/api/check", tiny+strings.Repeat("// padding\n", 100))
	require.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
	require.Contains(t, errorsOf(t, w)[0].Message, "1 KiB")
	require.Zero(t, calls, "an oversize body reached the checker")
	require.Equal(t, http.StatusOK, post(t, h, "/api/check", tiny).Code) // under the limit: checked
	require.Equal(t, 1, calls)
}

func TestBadQueryRefused(t *testing.T) {
	h := New(Config{Check: compileOnly, Explain: noExplain})
	for _, q := range []string{"timeout=5", "timeout=-1s", "timeout=soon", "lock-edges=maybe", "lock_edges=true", "format=text"} {
		w := post(t, h, "/api/check?"+q, tiny)
		require.Equal(t, http.StatusBadRequest, w.Code, q)
		require.Contains(t, errorsOf(t, w)[0].Message, strings.SplitN(q, "=", 2)[0], q)
	}
}

// TestTimeoutClamped: the server's limit holds whatever the query asks,
// and is the default.
func TestTimeoutClamped(t *testing.T) {
	var got []time.Duration
	check := func(_ context.Context, src []byte, q Query) (*report.Report, error) {
		got = append(got, q.Timeout)
		return compileOnly(context.Background(), src, q)
	}
	h := New(Config{Check: check, Explain: noExplain, MaxTimeout: 3 * time.Second, Remember: -1})
	for _, q := range []string{"", "timeout=1h", "timeout=200ms"} {
		require.Equal(t, http.StatusOK, post(t, h, "/api/check?"+q, tiny).Code, q)
	}
	require.Equal(t, []time.Duration{3 * time.Second, 3 * time.Second, 200 * time.Millisecond}, got)
}

func TestUsageAndServerErrors(t *testing.T) {
	h := New(Config{Explain: noExplain, Check: func(context.Context, []byte, Query) (*report.Report, error) {
		return nil, &UsageError{Msg: "--engine profile cannot decide a program with locks"}
	}})
	w := post(t, h, "/api/check", tiny)
	require.Equal(t, http.StatusBadRequest, w.Code)
	require.Equal(t, "--engine profile cannot decide a program with locks", errorsOf(t, w)[0].Message)

	h = New(Config{Explain: noExplain, Check: func(context.Context, []byte, Query) (*report.Report, error) {
		return nil, fmt.Errorf("engine global failed: boom")
	}})
	require.Equal(t, http.StatusInternalServerError, post(t, h, "/api/check", tiny).Code)
}

// big is a program over SmallBody: it may take only the shared slots.
var big = tiny + strings.Repeat("// padding to pass the small inputs' bound\n", 60)

// TestConcurrencyBound: with MaxChecks slots, no more checks than that run
// at once however many requests arrive; the others wait their turn.
func TestConcurrencyBound(t *testing.T) {
	const slots, requests = 2, 8
	var running, most atomic.Int32
	release := make(chan struct{})
	check := func(_ context.Context, src []byte, q Query) (*report.Report, error) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		running.Add(-1)
		return compileOnly(context.Background(), src, q)
	}
	h := New(Config{Check: check, Explain: noExplain, MaxChecks: slots, QueueWait: time.Minute})
	codes := make(chan int, requests)
	var wg sync.WaitGroup
	for range requests {
		wg.Go(func() { codes <- post(t, h, "/api/check", big).Code })
	}
	// Every slot fills (a wait, not a timing: the bound is 10 s) ...
	require.Eventually(t, func() bool { return running.Load() == slots }, 10*time.Second, time.Millisecond)
	for range requests { // ... then one check is let through at a time
		release <- struct{}{}
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		require.Equal(t, http.StatusOK, c)
	}
	require.Equal(t, int32(slots), most.Load(), "checks running at once")
}

// TestBusyAnswers503: a request that finds every slot taken past
// QueueWait is answered 503 with Retry-After, without running: the shared
// slot held by a large input, the one kept for small inputs by a small one.
func TestBusyAnswers503(t *testing.T) {
	entered, release := make(chan struct{}, 2), make(chan struct{})
	var calls atomic.Int32
	check := func(_ context.Context, src []byte, q Query) (*report.Report, error) {
		if calls.Add(1) <= 2 {
			entered <- struct{}{}
			<-release
		}
		return compileOnly(context.Background(), src, q)
	}
	h := New(Config{Check: check, Explain: noExplain, MaxChecks: 1, QueueWait: -1})
	first := make(chan int, 2)
	go func() { first <- post(t, h, "/api/check", big).Code }()
	<-entered
	w := post(t, h, "/api/check", big+"// another\n")
	require.Equal(t, http.StatusServiceUnavailable, w.Code, "a large input with the shared slot taken")
	go func() { first <- post(t, h, "/api/check", tiny).Code }()
	<-entered
	for _, path := range []string{"/api/check", "/api/timeline", "/api/explain"} {
		w := post(t, h, path, tiny+"// "+path+"\n")
		require.Equal(t, http.StatusServiceUnavailable, w.Code, path)
		require.Equal(t, "1", w.Header().Get("Retry-After"))
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/lab?family=chain&engines=profile&sizes=1,2", nil))
	require.Equal(t, http.StatusServiceUnavailable, w.Code, "lab")
	close(release)
	require.Equal(t, http.StatusOK, <-first)
	require.Equal(t, http.StatusOK, <-first)
	require.Equal(t, int32(2), calls.Load())
}

func TestLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:80": true, "[::1]:8080": true, "127.0.0.2:1": true,
		":8080": false, "0.0.0.0:8080": false, "[::]:8080": false, "192.168.1.5:8080": false, "example.com:80": false,
	} {
		got, err := Loopback(addr)
		require.NoError(t, err, addr)
		require.Equal(t, want, got, addr)
	}
	_, err := Loopback("8080")
	require.ErrorContains(t, err, "HOST:PORT")
}

// TestServerTimeouts: a slow client cannot hold a connection.
func TestServerTimeouts(t *testing.T) {
	srv := NewServer(DefaultAddr, Config{Check: compileOnly, Explain: noExplain})
	require.Positive(t, srv.ReadHeaderTimeout)
	require.Positive(t, srv.ReadTimeout)
	require.Greater(t, srv.WriteTimeout, DefaultMaxTimeout+LabLimits{}.withDefaults().PerSweep)
	require.Positive(t, srv.IdleTimeout)
}

// TestRememberedAnswers: a decided answer is remembered for the same
// program and flags (the witness page after its check costs no second
// search); unknown is not, a different flag is another question, and the
// oldest is forgotten past the bound.
func TestRememberedAnswers(t *testing.T) {
	calls := map[string]int{}
	verdict := engines.Serializable
	check := func(_ context.Context, src []byte, q Query) (*report.Report, error) {
		calls[string(src)]++
		p, err := lang.Compile(q.Name, src)
		require.NoError(t, err)
		return report.BuildLean(p, engines.Result{Verdict: verdict, Engine: "fake", Reason: "r"})
	}
	h := New(Config{Check: check, Explain: noExplain, Remember: 2})
	prog := func(v string) string { return "thread A { write " + v + " }\n" }
	for range 3 {
		require.Equal(t, http.StatusOK, post(t, h, "/api/check", prog("x")).Code)
	}
	require.Equal(t, http.StatusOK, post(t, h, "/api/timeline", prog("x")).Code)
	require.Equal(t, 1, calls[prog("x")])
	post(t, h, "/api/check?lock-edges=true", prog("x"))
	require.Equal(t, 2, calls[prog("x")], "--lock-edges is another question")
	post(t, h, "/api/check", prog("y")) // the third answer: x's first is forgotten
	post(t, h, "/api/check", prog("x"))
	require.Equal(t, 3, calls[prog("x")])

	verdict = engines.Unknown
	post(t, h, "/api/check", prog("z"))
	post(t, h, "/api/check", prog("z"))
	require.Equal(t, 2, calls[prog("z")], "unknown was remembered")
}

// TestServeListensAndStops: Serve answers on the address it reports and
// returns once its context ends.
func TestServeListensAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := NewServer("127.0.0.1:0", Config{Check: compileOnly, Explain: noExplain})
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, srv, func(a string) { addrs <- a }) }()
	addr := <-addrs
	res, err := http.Post("http://"+addr+"/api/check", "text/plain", strings.NewReader(tiny))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res.Body.Close()
	cancel()
	require.NoError(t, <-done)
	_, err = http.Get("http://" + addr + "/")
	require.Error(t, err, "still serving after its context ended")
}
