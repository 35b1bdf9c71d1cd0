package serve

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/conc-dev/conc/report"
)

// slowChecker is a Checker whose checks of a program containing "// slow"
// hold their slot until released (or their time limit, as a real check
// ends in unknown), and which records each check's time limit.
type slowChecker struct {
	mu       sync.Mutex
	slow     int
	release  chan struct{}
	timeouts map[string]time.Duration
}

func (c *slowChecker) check(ctx context.Context, src []byte, q Query) (*report.Report, error) {
	c.mu.Lock()
	c.timeouts[string(src)] = q.Timeout
	c.mu.Unlock()
	if strings.Contains(string(src), "// slow") {
		c.mu.Lock()
		c.slow++
		c.mu.Unlock()
		select {
		case <-c.release:
		case <-time.After(q.Timeout):
		case <-ctx.Done():
		}
	}
	return compileOnly(ctx, src, q)
}

func (c *slowChecker) running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slow
}

// TestLightRequestsThroughBusySlots: with every shared slot held by a
// long check of a large input, a class's light requests are still
// answered: remembered answers (and explanations) without a slot, small
// programs in the slot kept for them, with a short time limit there. A
// large input still waits and gets 503.
func TestLightRequestsThroughBusySlots(t *testing.T) {
	c := &slowChecker{release: make(chan struct{}), timeouts: map[string]time.Duration{}}
	h := New(Config{Check: c.check, Explain: noExplain, MaxChecks: 2, QueueWait: 2 * time.Second,
		MaxTimeout: time.Minute, SmallTimeout: 3 * time.Second})
	// Decided before the slots fill: the large program's answer and
	// explanation are remembered.
	require.Equal(t, http.StatusOK, post(t, h, "/api/check", big).Code)
	require.Equal(t, http.StatusOK, post(t, h, "/api/explain", big).Code)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { post(t, h, "/api/check", fmt.Sprintf("%s// slow %d\n", big, i)) })
	}
	defer func() { close(c.release); wg.Wait() }()
	// A wait, not a timing: both shared slots are held.
	require.Eventually(t, func() bool { return c.running() == 2 }, 10*time.Second, time.Millisecond)

	codes := make(chan string, 30)
	var light sync.WaitGroup
	for i := range 30 {
		light.Go(func() {
			path, body := "/api/check", fmt.Sprintf("%s// learner %d\n", tiny, i)
			switch i % 3 {
			case 1:
				path, body = "/api/check", big // remembered
			case 2:
				path, body = "/api/explain", big // remembered
			}
			if w := post(t, h, path, body); w.Code != http.StatusOK {
				codes <- fmt.Sprintf("%d %s: %d %s", i, path, w.Code, w.Body.String())
			}
		})
	}
	light.Wait()
	close(codes)
	for c := range codes {
		t.Error(c)
	}
	c.mu.Lock()
	require.Equal(t, 3*time.Second, c.timeouts[tiny+"// learner 0\n"], "a small input's limit in the kept slot")
	c.mu.Unlock()
	w := post(t, h, "/api/check", big+"// not remembered\n")
	require.Equal(t, http.StatusServiceUnavailable, w.Code, "a large input took the slot kept for small ones")
}
