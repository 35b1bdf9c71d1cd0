//go:build go1.21

// Package rt is the runtime of `conc record`: code instrumented by package
// record imports it (the recorder overlays it into the user's module as
// MODULE/concrecord_rt) and calls it at every recorded event. It writes one
// STD trace (docs/spec.md §3 and docs/record.md) to the gzip file named by
// $CONC_RECORD_TRACE, one event a line, all lines under one lock so that
// they are totally ordered. Without that variable every call only does the
// program's own operation.
//
// It imports only the standard library, so that the instrumented module
// needs no new dependency.
package rt
