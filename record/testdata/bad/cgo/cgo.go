package cgo

import "C"

func F() {}
