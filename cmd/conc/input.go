package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/conc-dev/conc/trace"
)

// cannotRead spells a file that cannot be opened or read the same way for
// every command: "cannot read NAME: why", the name once (an fs.PathError
// would name it again, "open NAME: ...").
func cannotRead(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot read %s: %v", pe.Path, pe.Err)
	}
	return err
}

// inputError reports an error of opening the input: a trace error is
// printed as it reads, "FILE:LINE: why" (docs/spec.md §5), like those met
// later in the trace; anything else as "conc: why".
func inputError(e *env, err error) int {
	var te *trace.Error
	if errors.As(err, &te) {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	return e.errorf("%v", err)
}
