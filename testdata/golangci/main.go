// Command custom-gcl is golangci-lint v2 with the lockaudit module plugin
// built in — what `golangci-lint custom` builds from a .custom-gcl.yml, made
// here from modules (that command clones golangci-lint with git). The test
// analyzers/golangci/plugin_test.go builds and runs it.
package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	// The plugin registers "lockaudit" in its init.
	_ "github.com/lockaudit/lockaudit/analyzers/golangci"
)

func main() {
	info := commands.BuildInfo{Version: "2.15.0-custom-gcl", Commit: "lockaudit testdata", Date: "(unknown)", GoVersion: "go"}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
