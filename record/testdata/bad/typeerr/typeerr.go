package typeerr

func F() int {
	return "not an int"
}
