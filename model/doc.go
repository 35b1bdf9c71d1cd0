// Package model is the program model of conc: threads as finite or pushdown
// automata over the events of Farzan and Madhusudan's Section 2 (begin, end,
// read, write, acquire, release; fork and join for traces), programs as sets
// of threads, and runs and witnesses as plain data.
//
// Everything here is independent of the .conc syntax (package lang builds
// models) and of the engines (package engines decides them). Positions live
// here, once, so that every layer above can carry them without importing lang.
package model
