package lang

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// sniffLen is how much of an input binaryAt looks at: a program is text
// from its start, and a binary file shows it in its first bytes.
const sniffLen = 8 << 10

// binaryAt is the 1-based line of the first NUL byte or invalid UTF-8 in
// src's first sniffLen bytes, with what it is, or 0: such input is not a
// program, and parsing it would only pile up errors (an executable gave
// millions).
func binaryAt(src []byte) (line int, what string) {
	head := src[:min(len(src), sniffLen)]
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRune(head[i:])
		switch {
		case r == 0:
			what = "a NUL byte"
		case r == utf8.RuneError && size == 1 && (len(head) == len(src) || i+utf8.UTFMax <= len(head)):
			what = "invalid UTF-8" // (a rune cut by the sniff's end is not)
		}
		if what != "" {
			return 1 + bytes.Count(head[:i], []byte{'\n'}), what
		}
		i += size
	}
	return 0, ""
}

// NotText is the error of a binary input, naming the file and line: nil
// for text. Check it before compiling input that may not be a program.
func NotText(name string, src []byte) error {
	if line, what := binaryAt(src); line > 0 {
		return fmt.Errorf("%s:%d: not a .conc program: binary data (%s)", name, line, what)
	}
	return nil
}
