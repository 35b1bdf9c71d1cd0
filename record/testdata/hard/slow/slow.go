package slow

var X int
