package main

// isVetTool reports whether the arguments follow go vet's unitchecker
// protocol (-V=full, -flags, or a single *.cfg file after analyzer flags).
func isVetTool(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-V=full", "-flags":
		return true
	}
	last := args[len(args)-1]
	return len(last) > 4 && last[len(last)-4:] == ".cfg"
}

// runVetTool is implemented with unitchecker (see issue 2).
func runVetTool(args []string) int {
	panic("not yet implemented")
}
