// Package once initialises through sync.Once for conc record's tests.
package once

import "sync"

var (
	once   sync.Once
	config int
)

// Config sets config once and reads it.
func Config() int {
	once.Do(func() { config = 42 })
	return config
}
