package serve

import (
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// Any web page the user visits can make the browser send requests to the
// playground on 127.0.0.1: a form or fetch POSTing a program (each a
// search of up to --timeout), or, through DNS rebinding (a name of the
// page's that resolves to 127.0.0.1), whole pages whose answers it can
// read. Two checks refuse them with 403:
//   - the Host must name the server: the host of --addr, localhost, or,
//     on a loopback address, a loopback IP; on a wildcard address (--public
//     on 0.0.0.0) any IP or this machine's name. A rebinding page's Host
//     is its own name.
//   - a POST that carries an Origin (browsers send one with every POST)
//     must come from the playground itself: http://HOST where HOST is the
//     request's Host. Clients that send no Origin (curl, scripts) pass.

// hostPolicy is the set of Host names a playground on an address answers.
type hostPolicy struct {
	names    map[string]bool
	loopback bool // any loopback IP
	anyIP    bool // any IP literal (a wildcard address)
}

// newHostPolicy is the policy of a playground listening on addr; "" (a
// handler used without a listener, in tests) checks no Host.
func newHostPolicy(addr string) *hostPolicy {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	host = canonicalHost(host)
	p := &hostPolicy{names: map[string]bool{"localhost": true, host: true}}
	ip := net.ParseIP(host)
	switch {
	case host == "localhost" || ip != nil && ip.IsLoopback():
		p.loopback = true
	case host == "" || ip != nil && ip.IsUnspecified():
		p.anyIP = true
		if name, err := os.Hostname(); err == nil {
			p.names[canonicalHost(name)] = true
			short, _, _ := strings.Cut(name, ".")
			p.names[canonicalHost(short)] = true
		}
	}
	return p
}

// allows reports whether a request's Host names the server.
func (p *hostPolicy) allows(hostHeader string) bool {
	if p == nil {
		return true
	}
	host, _, err := net.SplitHostPort(hostHeader)
	if err != nil {
		host = hostHeader // no port
	}
	host = canonicalHost(host)
	if p.names[host] {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (p.anyIP || p.loopback && ip.IsLoopback())
}

// canonicalHost is a host name as compared: lower case, without IPv6
// brackets or a trailing dot.
func canonicalHost(h string) string {
	h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(h, "]"), "["), ".")
	return strings.ToLower(h)
}

// sameOrigin answers 403 to a request whose Host is not the server's, or
// a POST whose Origin is another site's.
func sameOrigin(p *hostPolicy, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.allows(r.Host) {
			writeErrors(w, http.StatusForbidden, apiError{Message: "Host " + strconv.Quote(r.Host) +
				" is not this playground's address (docs/playground.md: requests by other sites are refused)"})
			return
		}
		if o := r.Header.Get("Origin"); r.Method == http.MethodPost && o != "" && !sameHostOrigin(o, r.Host) {
			writeErrors(w, http.StatusForbidden, apiError{Message: "a request from " + strconv.Quote(o) +
				" is refused: only the playground's own page may POST to it (docs/playground.md)"})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// sameHostOrigin reports whether origin is the playground's own page as
// served for Host host: http://host (the server speaks plain HTTP).
func sameHostOrigin(origin, host string) bool {
	return strings.EqualFold(origin, "http://"+host)
}
