// Package cut has a test that panics: its trace is cut.
package cut

// N is written before the panic.
var N int
