// Package chans hands values over channels for conc record's tests.
package chans

// Box is written before a hand-off and read after it.
type Box struct{ v int }
