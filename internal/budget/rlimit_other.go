//go:build !linux

package budget

// processLimits reads no limits outside Linux.
func processLimits() []processLimit { return nil }
