package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// DefaultAddr is where conc serve listens without --addr: loopback only.
const DefaultAddr = "127.0.0.1:8080"

// Loopback reports whether addr (host:port) listens on the loopback
// interface only: localhost or a loopback IP. An empty host, 0.0.0.0 or
// :: is every interface; any other name may resolve anywhere.
func Loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--addr %q: want HOST:PORT, e.g. %s", addr, DefaultAddr)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// NewServer is the http.Server of the playground at addr, with timeouts:
// a client that sends its headers or body slowly, or never reads the
// answer, cannot hold a connection. The write timeout leaves room for
// the longest check or lab sweep.
func NewServer(addr string, cfg Config) *http.Server {
	c := cfg.withDefaults()
	c.Addr = addr
	longest := max(c.MaxTimeout, c.Lab.PerSweep) + c.QueueWait
	return &http.Server{
		Addr:              addr,
		Handler:           New(c),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      longest + 15*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// Serve listens on srv.Addr and serves until ctx ends, then shuts down,
// letting running requests finish for a few seconds. ready, if not nil,
// is called with the address it listens on.
func Serve(ctx context.Context, srv *http.Server, ready func(addr string)) error {
	ln, err := net.Listen("tcp", srv.Addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(stop)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
