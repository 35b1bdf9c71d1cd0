//go:build !amd64 || purego

package trace

// quickAsm: quickLines runs quickGo on this architecture, or with -tags
// purego (Go's convention for building without assembly).
const quickAsm = false

func (r *Reader) quickNative(evs []Event) int { return r.quickGo(evs) }
