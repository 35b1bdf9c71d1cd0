// Package sel uses a channel in a select and elsewhere: the select's
// operations are not numbered, so the channel's are no longer paired.
package sel

// N is written after the receive.
var N int
