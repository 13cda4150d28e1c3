package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

func init() {
	register(&command{
		Name:    "version",
		Usage:   "version",
		Summary: "Print lockaudit's version (the module version it was built from).",
		Run: func(ctx context.Context, e *env, args []string) error {
			if len(args) > 0 {
				return usageError("version takes no arguments")
			}
			fmt.Fprintf(e.Stdout, "lockaudit %s\n", version())
			return nil
		},
	})
}

// version is the module version lockaudit was built from: a tag for
// `go install ...@v1.2.3`, "(devel)" for a build inside the repository.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
