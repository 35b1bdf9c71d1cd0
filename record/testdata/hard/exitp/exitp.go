package exitp

var X int
