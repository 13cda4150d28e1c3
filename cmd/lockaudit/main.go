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
	"reflect"
	"regexp"
	"sort"
	"strconv"
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

	// passwords are the passwords read from password files, which every
	// report is redacted of (with LOCKAUDIT_PASSWORD's).
	passwords []string
}

// redactor removes the passwords the command knows — LOCKAUDIT_PASSWORD
// and any read from a password file — from text: every report goes
// through it, whatever its texts came from (a server, the code, the
// consultant's notes).
func (e *env) redactor() func(string) string {
	return secret.Redactor(append([]string{e.Getenv(secret.Env)}, e.passwords...)...)
}

// command is one subcommand. Its help page — what `lockaudit help NAME`,
// `NAME -h` and `NAME --help` all print on stdout — is made of these
// fields and the flags its Run registers (see helpPage).
type command struct {
	Name     string
	Usage    string // usage lines after "lockaudit ", one per line: "vet [flags] [packages]"
	Summary  string // one line, for the command list
	Doc      string // what it does, in paragraphs
	Examples string // command lines, each with a comment: "lockaudit vet ./...   # ..."
	Exit     string // exit status, one code per line: "0  no findings"
	// Run runs the command. Given -h, -help or --help it must print the help
	// page (parseFlags does, or printHelp for commands without flags) and
	// return nil, so `help NAME` can run it for the page.
	Run func(ctx context.Context, e *env, args []string) error
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

// interrupted is the cause of the run's context when a signal stops it:
// SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed) or SIGQUIT
// (Ctrl-\) — anything short of SIGKILL, so that conform always deletes
// its scratch keys. The command then stops where it is — before writing
// any report —, stops what it started, and exits 128+signal: 130 for
// SIGINT, 143 for SIGTERM, 129 for SIGHUP, 131 for SIGQUIT, as shells
// report a process the signal ended.
type interrupted struct{ sig syscall.Signal }

func (i *interrupted) Error() string { return "interrupted (" + signalName(i.sig) + ")" }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return s.String()
}

// stopSignals are the signals that stop a command cleanly (interrupted).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// withSignals returns a context that any of stopSignals cancels with an
// *interrupted cause. After the first signal the handler is removed, so a
// second Ctrl-C ends the process at once (servers the demo started still
// die with it: they have a parent-death signal).
func withSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
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
	if len(args) == 0 {
		printUsage(e.Stderr)
		return report.ExitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(e.Stdout)
		return 0
	case "-V", "-version", "--version":
		args = append([]string{"version"}, args[1:]...)
	case "help":
		return runHelp(ctx, e, args[1:])
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "lockaudit: unknown command %q\n\n", args[0])
		printUsage(e.Stderr)
		return report.ExitUsage
	}
	return commandExit(ctx, e, c.Name, c.Run(ctx, e, args[1:]))
}

// commandExit turns a command's error into its exit code, printing the
// message (if any) on stderr.
func commandExit(ctx context.Context, e *env, name string, err error) int {
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
		fmt.Fprintf(e.Stderr, "lockaudit %s: %s; no report written\n", name, what)
		return code
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(e.Stderr, "lockaudit %s: %s\n", name, report.EscapeLines(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintf(e.Stderr, "lockaudit %s: %s\n", name, report.EscapeLines(err.Error()))
	return report.ExitFailed
}

// runHelp is `lockaudit help [TOPIC]`: the command list, or a command's
// page — the very page its -h prints, because it runs the command with -h.
// An unknown topic is a usage error.
func runHelp(ctx context.Context, e *env, args []string) int {
	switch {
	case len(args) == 0 || (len(args) == 1 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help")):
		printUsage(e.Stdout)
		return 0
	case len(args) > 1:
		fmt.Fprintf(e.Stderr, "lockaudit help: one topic at a time, got %q\n", strings.Join(args, " "))
		return report.ExitUsage
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "lockaudit help: unknown help topic %q; the topics are the commands: %s\n", args[0], strings.Join(commandNames(), ", "))
		return report.ExitUsage
	}
	return commandExit(ctx, e, c.Name, c.Run(ctx, e, []string{"-h"}))
}

// flagSetHook, when set (tests), sees every flag set a command builds.
var flagSetHook func(*flag.FlagSet)

// newFlagSet returns a subcommand's flag set; name is the command's name,
// with its subcommand if it has one ("config init"). Its Usage prints the
// command's help page on stdout (see parseFlags).
func newFlagSet(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { printHelp(e.Stdout, commands[strings.Fields(name)[0]], fs) }
	if flagSetHook != nil {
		flagSetHook(fs)
	}
	return fs
}

// parseFlags parses a subcommand's flags, which may come before, between
// or after its positional arguments (package patterns, addresses): go
// vet ./... -tests works. After "--" everything is positional. Afterwards
// fs.Args() are the positional arguments in order. done is true when the
// command must stop: after -h, -help or --help (the help page is printed
// on stdout; exit 0) or a bad flag (the flag package has named it on
// stderr, followed by the usage line; exit 2).
func parseFlags(fs *flag.FlagSet, args []string) (done bool, err error) {
	page := fs.Usage
	fs.Usage = func() {} // the flag package calls it on -h and on errors; decided below
	defer func() { fs.Usage = page }()
	var positional []string
	for rest := args; len(rest) > 0; {
		err := fs.Parse(rest)
		if errors.Is(err, flag.ErrHelp) {
			page()
			return true, nil
		}
		if err != nil {
			c := commands[strings.Fields(fs.Name())[0]]
			fmt.Fprintf(fs.Output(), "usage: lockaudit %s\nRun 'lockaudit help %s' for every flag.\n", strings.ReplaceAll(c.Usage, "\n", "\n       lockaudit "), c.Name)
			return true, exitWith(report.ExitUsage)
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if used := len(rest) - len(left); used > 0 && rest[used-1] == "--" {
			positional = append(positional, left...) // "--" ends the flags
			break
		}
		positional = append(positional, left[0])
		rest = left[1:]
	}
	// Parse again with only the positional arguments, after "--", so that
	// fs.Args() returns them; flags already set keep their values.
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return true, exitWith(report.ExitUsage)
	}
	return false, nil
}

// packagePatterns returns a command's package patterns (the positional
// arguments), refusing one that looks like a server URL: never echoed, it
// may hold a password (servers go in -addr).
func packagePatterns(fs *flag.FlagSet) ([]string, error) {
	for i, p := range fs.Args() {
		if secret.InValue(p) {
			return nil, usageError("package pattern %d %s (servers go in -addr)", i+1, secret.Refusal)
		}
	}
	return fs.Args(), nil
}

// printHelp prints a command's help page: summary, usage, description,
// the flags of each flag set (every flag with its description), examples
// and exit status.
func printHelp(w io.Writer, c *command, sets ...*flag.FlagSet) {
	fmt.Fprintf(w, "lockaudit %s: %s\n\nUsage:\n", c.Name, c.Summary)
	for _, u := range strings.Split(c.Usage, "\n") {
		fmt.Fprintf(w, "  lockaudit %s\n", u)
	}
	if c.Doc != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.Doc, "\n"))
	}
	for _, fs := range sets {
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n == 0 {
			continue
		}
		title := "Flags"
		if sub := strings.Fields(fs.Name()); len(sub) > 1 {
			title = "Flags of lockaudit " + fs.Name()
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		printFlags(w, fs)
	}
	fmt.Fprintf(w, "\nExamples:\n%s\n", indentLines(c.Examples))
	fmt.Fprintf(w, "\nExit status:\n%s\n", indentLines(exitLines(c)))
}

// printFlags prints fs's flags as flag.PrintDefaults does, except that a
// usage which names where else the default comes from — "(default:
// scan.count)", a key of the config file — gets one "(default 1000, or the
// config file's scan.count)" instead of that and the flag package's own
// "(default 1000)" after it.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  -" + f.Name
		if name != "" {
			line += " " + name
		}
		if len(line) <= 4 { // a one-letter boolean: usage on the same line
			line += "\t"
		} else {
			line += "\n    \t"
		}
		line += strings.ReplaceAll(usage, "\n", "\n    \t")
		if def := defaultText(f); def != "" {
			if m := configDefault.FindStringSubmatchIndex(line); m != nil {
				line = line[:m[0]] + "(default " + def + ", or the config file's " + line[m[2]:m[3]] + ")" + line[m[1]:]
			} else {
				line += " (default " + def + ")"
			}
		}
		fmt.Fprintln(w, line)
	})
}

// configDefault is a usage's "(default: KEY)" naming a config file key.
var configDefault = regexp.MustCompile(`\(default: ([a-z_]+\.[a-z_]+)\)`)

// defaultText is a flag's default as flag.PrintDefaults shows it, or ""
// for the zero value of its type (which it does not show).
func defaultText(f *flag.Flag) string {
	if t := reflect.TypeOf(f.Value); t.Kind() == reflect.Pointer {
		if zero, ok := reflect.New(t.Elem()).Interface().(flag.Value); ok && f.DefValue == zero.String() {
			return ""
		}
	}
	if f.DefValue == "" {
		return ""
	}
	if reflect.TypeOf(f.Value).String() == "*flag.stringValue" {
		return strconv.Quote(f.DefValue)
	}
	return f.DefValue
}

// interruptedExit is what every command exits with on a signal; main
// does it for all of them, so each page says it unless it says more.
const interruptedExit = "130  interrupted (Ctrl-C); 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT"

// exitLines is a command's exit status list, ending with the signal codes.
func exitLines(c *command) string {
	if strings.Contains(c.Exit, "\n130 ") {
		return c.Exit
	}
	return strings.TrimRight(c.Exit, "\n") + "\n" + interruptedExit
}

// indentLines indents each line of s by two spaces.
func indentLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

// helpRequested reports whether args ask for help (commands without
// flags check it before anything else).
func helpRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "lockaudit audits distributed-lock code and the Valkey/Redis fleets it runs on.")
	fmt.Fprintln(w, "\nUsage:\n  lockaudit COMMAND [flags] [arguments]\n\nCommands:")
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].Summary)
	}
	fmt.Fprint(w, `
Start here:
  lockaudit demo -offline      the whole story on a declared mid-upgrade fleet, no server needed
  lockaudit vet ./...          the lock code of the module in the working directory
  lockaudit help COMMAND       a command's description, flags, examples and exit codes

Flags may come before or after a command's arguments. lockaudit version
(also --version, -version, -V) prints the version and how it was built.

Exit codes: 0 clean, 1 run incomplete/failed, 2 usage, 3 findings/unsafe,
4 unknown.
`)
}
