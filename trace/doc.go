// Package trace reads execution traces in RAPID's STD format (docs/spec.md §3), the
// observed runs that conc monitor checks and conc predict reorders.
//
// A trace is a sequence of events of Farzan and Madhusudan's Section 2 —
// begin (▷), end (◁), read, write, acquire, release — plus fork and join,
// one a line as THREAD|OP|LOC (a line ends with "\n", "\r\n" or a lone "\r";
// LOC may be absent or empty, and holds no '|' and no control character
// but a tab). The Reader is a streaming, allocation-free
// scanner: it interns thread, variable, lock and location names into dense
// int32 ids (Table) and hands out small Event values, so memory depends on
// the number of distinct names, never on the length of the trace.
//
// The Reader also normalises the trace the way RAPID does before any
// analysis: nested begin/end pairs are flattened (only the outermost
// transaction is emitted, as docs/spec.md §1 flattens nested atomic blocks), and a
// re-entrant acq of a lock the thread already holds is dropped together with
// its matching rel. Malformed lines are errors carrying the line number
// ("trace.std:17: malformed op \"rd(x)\""), or, with Options.Lenient, are
// skipped and counted in Stats.
//
// A line is split in one pass, eight bytes at a time: quickLines (quick.go)
// takes the usual lines of a long trace without a call, fastLine (scan.go)
// most other lines whole in the buffer (new names, other locations,
// re-entrant locks, forks and joins), and parse (parse.go), the byte-wise reference,
// decides the rest; tests hold the three to the same answers.
//
// Gen writes synthetic traces (mostly two-phase-locked transactions with a
// controlled rate of unprotected accesses) for benchmarks and tests.
package trace
