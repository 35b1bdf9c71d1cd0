// Package browsertest starts headless Chromium for tests that load conc's
// pages in a real browser (chromedp). One browser serves a whole test:
// starting one costs about a second, a page a few milliseconds.
//
// Without Chromium the test is skipped, except in CI (CI set in the
// environment, as .ci/run's runners set it), where a browser test that
// cannot run is a failure: .ci/run installs Debian's chromium package.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// ExecPath finds Chromium: /usr/bin/chromium (Debian's package), else the
// other usual names on PATH; "" if none.
func ExecPath() string {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// InCI reports whether the tests run in CI (CI set, and not "false" or "0").
func InCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// Start starts one headless Chromium with a fresh profile, no network
// services of its own, and a window of width×height, and returns a
// browsing context (one tab) that the test's cleanup closes. It skips the
// test when there is no Chromium, unless in CI, where it fails it.
func Start(t *testing.T, width, height int) context.Context {
	t.Helper()
	path := ExecPath()
	if path == "" {
		noBrowser(t)
	}
	// chromedp's defaults (Puppeteer's: headless, no first run, no
	// background networking, extensions or sync, an sRGB profile so that
	// screenshots do not depend on the machine), and no network services
	// of Chromium's own.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // root in containers
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting Chromium (%s): %v", path, err)
	}
	return ctx
}

// noBrowser ends a browser test that has no Chromium: skipped on a
// developer's machine, failed in CI.
func noBrowser(t testing.TB) {
	t.Helper()
	if InCI() {
		t.Fatal("no Chromium (/usr/bin/chromium), and CI is set: .ci/run installs the chromium package")
		return
	}
	t.Skip("no Chromium installed (apt-get install chromium); the browser tests need it")
}
