//go:build go1.21

// Package rt is the runtime of `conc record`: code instrumented by package
// record imports it (the recorder overlays it into the user's module as
// MODULE/concrecord_rt) and calls it at every recorded event. It writes one
// STD trace (docs/spec.md §3 and docs/record.md) to the gzip file named by
// $CONC_RECORD_TRACE, one event a line. An event takes a ticket, which
// orders the lines, and leaves its raw data in a ring (record.go); an
// encoder goroutine names the records and compresses their lines
// (encoder.go, names.go, lines.go, lz.go, deflate.go). Without that
// variable every call only does the program's own operation.
//
// An event site is written as
//
//	a := object(p, hint, obj, tag) // or variable, element, mapOf, lit
//	emit(self(), opX, &a, loc)     // message for post, wait, give, take
//
// at the place its line belongs; code that decides what to write from the
// runtime's own state (channels, WaitGroups, tests) holds mu meanwhile.
//
// It imports only the standard library, so that the instrumented module
// needs no new dependency.
package rt
