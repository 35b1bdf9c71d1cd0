//go:build go1.21

package rt

// Begin starts a transaction of the calling goroutine: instrumented code
// calls it at the entry of a function marked //conc:atomic (or named by
// --atomic) and defers End, so the transaction closes however the
// function returns. Nested ones are flattened by the trace's reader.
func Begin(loc string) { event(opBegin, ref{}, loc) }

// End ends the transaction Begin started.
func End(loc string) { event(opEnd, ref{}, loc) }
