// Command lockaudit audits distributed-lock code and the Valkey/Redis fleets
// it runs on. See README.md.
//
// Each subcommand lives in its own file and registers itself in init; main
// only dispatches. The same binary also speaks go vet's unitchecker protocol
// (see vettool.go), so `go vet -vettool=$(command -v lockaudit)` works.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/lockaudit/lockaudit/internal/secret"
	"github.com/lockaudit/lockaudit/report"
)

// env is what a subcommand may touch, so tests run the whole CLI in-process.
type env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Dir            string // working directory
}

// command is one subcommand.
type command struct {
	Name    string
	Usage   string // one line: "vet [flags] [packages]"
	Summary string
	Run     func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.Name]; dup {
		panic("duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// exitError carries an exit code up to main. A nil message prints nothing
// (the renderer already said everything).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageError is a bad flag or argument: exit 2.
func usageError(format string, args ...any) error {
	return &exitError{code: report.ExitUsage, msg: fmt.Sprintf(format, args...)}
}

// failure is a run that could not complete: exit 1.
func failure(format string, args ...any) error {
	return &exitError{code: report.ExitFailed, msg: fmt.Sprintf(format, args...)}
}

// exitWith ends a command with a code decided elsewhere, printing nothing.
func exitWith(code int) error {
	if code == 0 {
		return nil
	}
	return &exitError{code: code}
}

func main() {
	// The password is read once and removed from the environment, so no
	// process lockaudit starts (go list and the compiler it runs, the
	// demo's servers) inherits it.
	password := os.Getenv(secret.Env)
	os.Unsetenv(secret.Env)
	getenv := func(k string) string {
		if k == secret.Env {
			return password
		}
		return os.Getenv(k)
	}
	ctx, stop := withSignals(context.Background())
	dir, _ := os.Getwd()
	code := run(ctx, os.Args[1:], &env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: getenv, Dir: dir})
	stop()
	os.Exit(code)
}

// interrupted is the cause of the run's context when SIGINT (Ctrl-C) or
// SIGTERM stops it. The command then stops where it is — before writing
// any report —, stops what it started, and exits 128+signal: 130 for
// SIGINT, 143 for SIGTERM, as shells report a process the signal ended.
type interrupted struct{ sig syscall.Signal }

func (i *interrupted) Error() string { return "interrupted (" + signalName(i.sig) + ")" }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// withSignals returns a context that SIGINT or SIGTERM cancels with an
// *interrupted cause. After the first signal the handler is removed, so a
// second Ctrl-C ends the process at once (servers the demo started still
// die with it: they have a parent-death signal).
func withSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			sig, _ := s.(syscall.Signal)
			cancel(&interrupted{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}

// stopped returns the error that ends a command whose context was
// cancelled (the cause: *interrupted under main), or nil while it runs on.
// Commands call it after each long step and before writing anything, so an
// interrupted run writes no report and leaves the old ones as they were.
func stopped(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// interruption tells whether err ended a command because its context was
// cancelled, and the exit code for it.
func interruption(ctx context.Context, err error) (int, bool) {
	if err == nil || ctx.Err() == nil {
		return 0, false
	}
	var in *interrupted
	if errors.As(err, &in) {
		return 128 + int(in.sig), true
	}
	if errors.Is(err, context.Canceled) {
		return 128 + int(syscall.SIGINT), true
	}
	return 0, false
}

// run dispatches and turns errors into exit codes.
func run(ctx context.Context, args []string, e *env) int {
	if isVetTool(args) {
		return runVetTool(args)
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprintf(e.Stdout, "usage: lockaudit %s\n\n%s\n", c.Usage, c.Summary)
				return 0
			}
		}
		printUsage(e.Stdout)
		if len(args) == 0 {
			return report.ExitUsage
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "lockaudit: unknown command %q\n\n", args[0])
		printUsage(e.Stderr)
		return report.ExitUsage
	}
	err := c.Run(ctx, e, args[1:])
	if err == nil {
		return 0
	}
	// Messages name files and servers: escaped, so a file name or a
	// server's error cannot rewrite the terminal.
	if code, ok := interruption(ctx, err); ok {
		what := "interrupted"
		var in *interrupted
		if errors.As(context.Cause(ctx), &in) {
			what = in.Error()
		}
		fmt.Fprintf(e.Stderr, "lockaudit %s: %s; no report written\n", c.Name, what)
		return code
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(e.Stderr, "lockaudit %s: %s\n", c.Name, report.EscapeLines(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintf(e.Stderr, "lockaudit %s: %s\n", c.Name, report.EscapeLines(err.Error()))
	return report.ExitFailed
}

// newFlagSet returns a subcommand's flag set; -h prints the command's usage
// line and then its flags.
func newFlagSet(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: lockaudit %s\n\n", commands[strings.Fields(name)[0]].Usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses a subcommand's flags. done is true when the command
// must stop: after -h (usage printed, exit 0) or a bad flag (the flag
// package has described it; exit 2).
func parseFlags(fs *flag.FlagSet, args []string) (done bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return true, exitWith(report.ExitUsage)
	}
	return false, nil
}

// packagePatterns returns the arguments after the flags. The flag package
// stops at the first pattern, so a flag written after one would silently
// become a pattern: refuse it.
func packagePatterns(fs *flag.FlagSet) ([]string, error) {
	for i, p := range fs.Args() {
		if secret.InValue(p) {
			// A server URL where a pattern goes (audit's servers are -addr):
			// never echoed, it may hold a password.
			return nil, usageError("package pattern %d %s (servers go in -addr)", i+1, secret.Refusal)
		}
		if strings.HasPrefix(p, "-") {
			return nil, usageError("flag %s after the package patterns: flags go first", p)
		}
	}
	return fs.Args(), nil
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "lockaudit audits distributed-lock code and the Valkey/Redis fleets it runs on.")
	fmt.Fprintln(w, "\nusage: lockaudit COMMAND [flags] [args]\n\ncommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, firstLine(commands[n].Summary))
	}
	fmt.Fprintln(w, "\nRun `lockaudit help COMMAND` for a command's flags. Exit codes: 0 clean, 1 failed, 2 usage, 3 findings/unsafe, 4 unknown.")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
