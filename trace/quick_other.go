//go:build !amd64

package trace

// quickAsm: quickLines runs quickGo on this architecture.
const quickAsm = false

func (r *Reader) quickNative(evs []Event) int { return r.quickGo(evs) }
