package serve

import (
	"context"
	"runtime"
	"time"

	"github.com/conc-dev/conc/report"
)

// Query is a check's parameters: docs/spec.md §4, conc serve's query parameters.
type Query struct {
	Name      string // the file name positions cite
	Engine    string // auto, profile, global or brute
	LockEdges bool   // --lock-edges
	// IgnoreSync is --ignore-sync, which the profile engine's refusal of
	// a program with locks suggests.
	IgnoreSync bool
	Timeout    time.Duration // --timeout, at most Config.MaxTimeout
}

// Checker is conc check --format json for one program source, under ctx
// (the request's: it ends when the client goes away): the report,
// or a *lang.ErrorList for static errors, a *UsageError for a query conc
// check refuses (both answered 400), or another error (500).
type Checker func(ctx context.Context, src []byte, q Query) (*report.Report, error)

// Explanation is what the playground shows beside the verdict.
type Explanation struct {
	Engine   string `json:"engine"`   // the engine --engine picks
	Why      string `json:"why"`      // why, in a sentence
	Profiles string `json:"profiles"` // conc profiles' text
	// Cut: a limit of the run cut the explanation short (Why or Profiles
	// is an unknown line), so it is not remembered, as an unknown verdict
	// is not.
	Cut bool `json:"-"`
}

// Explainer says which engine decides src and why, and lists its
// threads' profiles; errors as Checker's.
type Explainer func(ctx context.Context, src []byte, q Query) (*Explanation, error)

// UsageError is a query that conc check refuses (e.g. --engine profile on
// a program with locks): 400 with the message.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Config is a playground's pipeline and limits; zero limits take the
// defaults below.
type Config struct {
	Check   Checker
	Explain Explainer
	// Addr is the --addr the playground listens on: requests whose Host
	// names another server are refused (sameorigin.go). NewServer sets
	// it; "" checks no Host.
	Addr string

	MaxBody    int64         // bytes of a request body (default 64 KiB)
	MaxTimeout time.Duration // a check's time limit, and its default (10s)
	MaxChecks  int           // checks and sweeps at a time (GOMAXPROCS)
	QueueWait  time.Duration // how long a request waits for a slot (5s)
	// SmallBody is the largest input (bytes) that may take the one slot
	// kept for small inputs (2 KiB; <0: none kept), where its check's
	// time limit is SmallTimeout (2s).
	SmallBody    int64
	SmallTimeout time.Duration
	Remember     int // decided answers kept for repeated checks (32; <0: none)
	Lab          LabLimits
}

// Defaults of Config.
const (
	DefaultMaxBody      = 64 << 10
	DefaultMaxTimeout   = 10 * time.Second
	DefaultQueueWait    = 5 * time.Second
	DefaultRemember     = 32
	DefaultSmallBody    = 2 << 10
	DefaultSmallTimeout = 2 * time.Second
)

func (c Config) withDefaults() Config {
	if c.MaxBody <= 0 {
		c.MaxBody = DefaultMaxBody
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = DefaultMaxTimeout
	}
	if c.MaxChecks <= 0 {
		c.MaxChecks = runtime.GOMAXPROCS(0)
	}
	if c.QueueWait < 0 {
		c.QueueWait = 0
	} else if c.QueueWait == 0 {
		c.QueueWait = DefaultQueueWait
	}
	if c.SmallBody == 0 {
		c.SmallBody = DefaultSmallBody
	}
	if c.SmallTimeout <= 0 {
		c.SmallTimeout = DefaultSmallTimeout
	}
	if c.Remember == 0 {
		c.Remember = DefaultRemember
	}
	c.Lab = c.Lab.withDefaults()
	return c
}
