package trace

// Skip is the kind of a line that Options.Lenient skips: a line that is
// not THREAD|OP|LOC, or one that no execution can produce (docs/spec.md
// §3). Skipping it is the reader's only repair, so every kind is counted
// (Stats.Skipped) and reported, never dropped quietly.
type Skip uint8

const (
	SkipMalformed Skip = iota // not THREAD|OP|LOC: the line, its op or its location
	SkipRelease               // a rel of a lock the thread does not hold
	SkipAcquire               // an acq of a lock another thread holds
	SkipEnd                   // an end without begin
	SkipForkJoin              // a second fork, a fork after the thread's start or join, a fork or join of itself
	SkipAfterJoin             // an event of a thread after its join
	SkipPost                  // a post of a message after a wait for it
	SkipCut                   // the marker of a trace whose recording stopped early
	SkipTake                  // a take of a token none gave
	NumSkips
)

// skipNames are the kinds' names in reports (JSON keys, and words).
var skipNames = [NumSkips]string{"malformed", "release_not_held", "acquire_held",
	"end_without_begin", "bad_fork_join", "after_join", "post_after_wait", "cut", "take_without_give"}

// skipWords say what the kind's lines are, after a count.
var skipWords = [NumSkips]string{"malformed", "rel of a lock not held", "acq of a lock held by another thread",
	"end without begin", "fork or join out of order", "event after its thread's join", "post after a wait for its message",
	"cut marker (the recording stopped early)", "take of a token none gave"}

// String is the kind's name in reports ("release_not_held").
func (k Skip) String() string { return skipNames[k] }

// Words is the kind in words ("rel of a lock not held").
func (k Skip) Words() string { return skipWords[k] }

// impossible records why the line at hand is one no execution can
// produce, for Stats.Skipped, and returns msg, its error message.
func (r *Reader) impossible(k Skip, msg string) string {
	r.why = k
	return msg
}
