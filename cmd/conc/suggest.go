package main

// commandNames are the names conc accepts first: the registered commands
// and the ones run answers itself.
func commandNames() []string {
	names := []string{"help", "version"}
	for n := range commands {
		names = append(names, n)
	}
	return names
}
