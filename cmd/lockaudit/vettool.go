package main

import (
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/driver"
)

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
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}

// runVetTool makes the binary a go vet tool:
//
//	go vet -vettool=$(command -v lockaudit) ./...
//	go vet -vettool=$(command -v lockaudit) -LA112.target=valkey-8.1 ./...
//
// unitchecker implements the protocol (-V=full, -flags, one *.cfg per
// package) and exits itself. Plain vet output has no category, so each
// message starts with its rule ID, as in `lockaudit vet`.
func runVetTool(args []string) int {
	unitchecker.Main(driver.Wrap(analyzers.All(), driver.PrefixRuleID)...)
	return 0 // not reached: unitchecker.Main exits
}
