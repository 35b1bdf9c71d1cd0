// Package ext is tested only from outside (package ext_test).
package ext

// Total is a package-level variable the external test writes.
var Total int

// Add adds n to Total.
func Add(n int) { Total += n }
