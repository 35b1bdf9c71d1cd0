package tafter

import "time"

var N int

func Wait() {
	ch := time.After(time.Millisecond)
	<-ch
	N++
}
