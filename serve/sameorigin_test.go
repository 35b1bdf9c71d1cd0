package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// request sends method path to h with the given Host and Origin ("" for
// none).
func request(h http.Handler, method, path, host, origin string) *httptest.ResponseRecorder {
	var body *strings.Reader
	if method == http.MethodPost {
		body = strings.NewReader("vars x\nthread A { write x }\n")
	} else {
		body = strings.NewReader("")
	}
	r := httptest.NewRequest(method, path, body)
	r.Host = host
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestCrossSiteRequestsRefused: on 127.0.0.1:8080, a POST from another
// site's page (its Origin) and any request whose Host is another name
// (DNS rebinding) get 403; the playground's own page, curl (no Origin),
// localhost and loopback IPs are served.
func TestCrossSiteRequestsRefused(t *testing.T) {
	h := NewServer("127.0.0.1:8080", Config{Check: compileOnly, Explain: noExplain}).Handler
	for _, tc := range []struct {
		method, path, host, origin string
		want                       int
	}{
		{"POST", "/api/check", "127.0.0.1:8080", "", http.StatusOK},
		{"POST", "/api/check", "127.0.0.1:8080", "http://127.0.0.1:8080", http.StatusOK},
		{"POST", "/api/check", "localhost:8080", "http://localhost:8080", http.StatusOK},
		{"POST", "/api/check", "LOCALHOST.:8080", "", http.StatusOK},
		{"POST", "/api/check", "[::1]:8080", "http://[::1]:8080", http.StatusOK},
		{"GET", "/", "127.0.0.1:8080", "", http.StatusOK},
		{"GET", "/api/examples", "localhost:8080", "https://evil.example", http.StatusOK}, // a GET reads nothing cross-site: the Host is ours
		{"POST", "/api/check", "127.0.0.1:8080", "https://evil.example", http.StatusForbidden},
		{"POST", "/api/explain", "127.0.0.1:8080", "http://127.0.0.1:9999", http.StatusForbidden},
		{"POST", "/api/timeline", "127.0.0.1:8080", "null", http.StatusForbidden},
		{"POST", "/api/check", "evil.example:8080", "http://evil.example:8080", http.StatusForbidden},
		{"GET", "/", "evil.example:8080", "", http.StatusForbidden},
		{"GET", "/api/examples", "rebind.evil.example", "", http.StatusForbidden},
		{"GET", "/api/lab/families", "192.168.1.5:8080", "", http.StatusForbidden},
	} {
		w := request(h, tc.method, tc.path, tc.host, tc.origin)
		require.Equal(t, tc.want, w.Code, "%s %s Host %s Origin %q: %s", tc.method, tc.path, tc.host, tc.origin, w.Body.String())
		if tc.want == http.StatusForbidden {
			require.Contains(t, errorsOf(t, w)[0].Message, "docs/playground.md")
		}
	}
}

// TestHostPolicyOnWildcard: a --public playground on 0.0.0.0 answers its
// IPs and localhost, not other names.
func TestHostPolicyOnWildcard(t *testing.T) {
	p := newHostPolicy("0.0.0.0:8080")
	require.True(t, p.allows("192.168.1.5:8080"))
	require.True(t, p.allows("localhost:8080"))
	require.False(t, p.allows("evil.example:8080"))
	named := newHostPolicy("play.example.org:80")
	require.True(t, named.allows("Play.Example.org"))
	require.False(t, named.allows("127.0.0.1:80"))
	require.True(t, newHostPolicy("").allows("anything"))
}
