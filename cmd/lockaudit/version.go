package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func init() {
	register(&command{
		Name:    "version",
		Usage:   "version\n--version | -version | -V",
		Summary: "Print lockaudit's version, the commit it was built from, and the Go version.",
		Doc: `Prints the module version lockaudit was built from (a release tag for
go install ...@v0.1.0 or a release binary; a pseudo-version or (devel)
for a build in a clone), the VCS commit and its time, whether the tree
had uncommitted changes, the Go version and the platform. All of it
comes from the build information Go records in the binary: a plain
go build ./cmd/lockaudit in a clone records the commit.`,
		Examples: `lockaudit version
lockaudit --version      # the same; also -version and -V`,
		Exit: `0  printed
2  usage error`,
		Run: func(ctx context.Context, e *env, args []string) error {
			fs := newFlagSet(e, "version")
			if done, err := parseFlags(fs, args); done {
				return err
			}
			if fs.NArg() > 0 {
				return usageError("version takes no arguments")
			}
			info, _ := debug.ReadBuildInfo()
			writeVersion(e.Stdout, info)
			return nil
		},
	})
}

// version is the module version lockaudit was built from: a tag for
// `go install ...@v1.2.3` or a release build, a pseudo-version
// (v0.0.0-20260101120000-abcdef123456, +dirty) for a go build in a clone,
// "(devel)" when Go recorded none.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// writeVersion prints the version lines from the build information (nil:
// none was recorded):
//
//	lockaudit v0.1.0
//	commit:   1f0c2d3e4b5a... (2026-12-01T12:00:00Z), modified
//	go:       go1.26.8 linux/amd64
func writeVersion(w io.Writer, bi *debug.BuildInfo) {
	v, goVersion := "(devel)", runtime.Version()
	settings := map[string]string{}
	if bi != nil {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
	}
	fmt.Fprintf(w, "lockaudit %s\n", v)
	if rev := settings["vcs.revision"]; rev != "" {
		commit := rev
		if t := settings["vcs.time"]; t != "" {
			commit += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			commit += ", modified"
		}
		fmt.Fprintf(w, "commit:   %s\n", commit)
	} else if v != "(devel)" {
		fmt.Fprintf(w, "commit:   not recorded (built from the module %s, not from a checkout)\n", v)
	} else {
		fmt.Fprintf(w, "commit:   not recorded (built without version control information, e.g. with -buildvcs=false)\n")
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	if os, arch := settings["GOOS"], settings["GOARCH"]; os != "" && arch != "" {
		platform = os + "/" + arch
	}
	fmt.Fprintf(w, "go:       %s %s\n", goVersion, platform)
}
