package engines

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/conc-dev/conc/model"
)

// Verdict is three-valued: a limit or an undecidable class gives Unknown.
type Verdict uint8

const (
	Serializable Verdict = iota
	Violation
	Unknown
)

var verdictNames = [...]string{"serializable", "violation", "unknown"}

func (v Verdict) String() string { return verdictNames[v] }

// Options are the limits and switches of one check (docs/spec.md §4).
type Options struct {
	LockEdges  bool // release→acquire and fork/join conflicts (docs/spec.md §1)
	IgnoreSync bool // drop lock, fork and join events first (optimistic)
	MaxStates  int  // 0: no limit
	MaxDepth   int  // brute: events per thread explored; 0: brute.MaxDepth, or no bound for a loop-free program
	MaxStack   int  // bounded search for recursive threads; 0: brute.MaxStack, global.MaxStack
	// MaxMemory is the memory budget in bytes (--max-memory); 0: the
	// default, budget.Default(). It is always on: every search's states
	// cost memory, so it also ends every search.
	MaxMemory int64
}

// OptimisticNote is the note a violation found under --ignore-sync carries
// (docs/spec.md §4): the engines give it, and conc check and conc predict
// put it on a violation that reaches the user without one.
const OptimisticNote = "optimistic: --ignore-sync dropped lock, fork and join events; " +
	"a schedule that respects them may not produce this run"

// Stats are the engine's counters, reported in JSON.
type Stats struct {
	States int64 `json:"states"`
	Events int64 `json:"events"`
	Millis int64 `json:"millis"`
}

// Result is an engine's answer. A violation carries its witness.
type Result struct {
	Verdict Verdict
	Reason  string // for Unknown, and notes such as --ignore-sync's optimism
	// Limit is the limit Reason names, for the code to decide by (the
	// user reads Reason); NoLimit for a decided answer. It is not
	// reported (docs/spec.md §5 has no such field).
	Limit   Limit
	Engine  string
	Witness *model.Witness
	Stats   Stats
}

// Limit names the limit of docs/spec.md §7 that an unknown answer's
// reason gives as the cause.
type Limit uint8

const (
	// NoLimit: the reason names no limit (an engine's internal error, or
	// a decided answer).
	NoLimit Limit = iota
	// Deadline: the search's context ended: --timeout, the command's
	// default time budget, or its caller cancelling it. An engine words
	// every end of its context so, the memory watch's (Within) too:
	// Settle gives that answer the budget's reason and MemoryBudget.
	Deadline
	// StateBudget: --max-states, the states of the compiled automata
	// under it, or predict's default state budgets (its chain states, the
	// reduced projection's size and states).
	StateBudget
	// MemoryBudget: --max-memory. The heap reached the budget (the
	// search's own poll, or the watch, Within, through Settle), or work
	// was refused before allocating because it would not fit.
	MemoryBudget
	// SearchBound: --max-depth or --max-stack. The search covered every
	// run within the bound, and the runs beyond it are not decided.
	SearchBound
	// TableLimit: predict's table memory, a fixed limit apart from the
	// memory budget: the reduced projection's tables would exceed it.
	TableLimit
)

var limitNames = [...]string{"none", "deadline", "states", "memory", "bound", "tables"}

func (l Limit) String() string { return limitNames[l] }

// Engine is one decision procedure. Supports returns a usage error when the
// engine cannot decide p under opts (the CLI reports it with exit 2). Check
// returns an error only when the engine itself failed; the context carries
// the deadline (--timeout), which ends in Unknown, not an error.
type Engine struct {
	Name     string
	Doc      string
	Supports func(p *model.Program, opts Options) error
	Check    func(ctx context.Context, p *model.Program, opts Options) (Result, error)
	// Decides declares the programs the engine decides (decides.go).
	Decides Decides
	// Auto is the engine's place in --engine auto's order of preference
	// (1 first, the paper's: profiles, then the product, then
	// enumeration); 0: auto never picks it.
	Auto int
}

var registry = map[string]*Engine{}

// Register adds an engine; engines register themselves in init.
func Register(e *Engine) {
	if _, dup := registry[e.Name]; dup {
		panic("engines: duplicate engine " + e.Name)
	}
	registry[e.Name] = e
}

// Lookup finds an engine by name.
func Lookup(name string) (*Engine, error) {
	if e, ok := registry[name]; ok {
		return e, nil
	}
	return nil, fmt.Errorf("unknown engine %q (have %s)", name, namesList())
}

// Names lists the registered engines, sorted.
func Names() []string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func namesList() string { return strings.Join(Names(), ", ") }
