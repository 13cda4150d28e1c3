package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lockaudit/lockaudit/internal/outfile"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules/config"
)

func init() {
	register(&command{
		Name:  "config",
		Usage: "config init [-force] [-C DIR]",
		Summary: `Write a commented .lockaudit.yaml (every key, with its meaning) in the working directory.

lockaudit vet, audit and probe find .lockaudit.yaml by walking up from the
working directory (or read -config FILE); flags win over it. An existing
file is never overwritten unless -force is given. Exit status: 0 written,
1 the file could not be written, 2 usage error or the file exists.`,
		Run: runConfig,
	})
}

func runConfig(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] != "init" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprintf(e.Stderr, "usage: lockaudit %s\n", commands["config"].Usage)
			return nil
		}
		return usageError("want a subcommand: lockaudit %s", commands["config"].Usage)
	}
	fs := newFlagSet(e, "config init")
	force := fs.Bool("force", false, "overwrite an existing "+config.FileName)
	dir := fs.String("C", "", "write into `DIR` instead of the working directory")
	if done, err := parseFlags(fs, args[1:]); done {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("config init takes no arguments (got %q)", fs.Arg(0))
	}
	d := e.Dir
	if *dir != "" {
		d = *dir
		if !filepath.IsAbs(d) {
			d = filepath.Join(e.Dir, d)
		}
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return usageError("-C %s: not a directory", d)
	}
	path := filepath.Join(d, config.FileName)
	if _, err := os.Lstat(path); err == nil && !*force {
		return usageError("%s exists; not overwriting it (use -force to replace it)", path)
	}
	// The one safe writer: atomic, and never through a link or over
	// something that is not a writable regular file, -force or not.
	if err := outfile.Write(path, []byte(config.Example)); err != nil {
		return failure("%v", err)
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", report.Escape(path))
	return nil
}
