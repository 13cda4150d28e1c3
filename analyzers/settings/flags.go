package settings

import (
	"flag"
	"fmt"
	"strings"
)

// Declare registers option name as a flag of an analyzer (fs is its
// Flags), so that go vet and golangci-lint offer it as -LAnnn.name. The
// flag only declares the option: it is bound to a run's Settings by the
// driver (FlagSet), and setting it on the shared analyzer is an error.
func Declare(fs *flag.FlagSet, name string) {
	declare(fs, name, usage[name])
}

// DeclareTarget registers the target option for a rule whose fix depends
// on it (LA101 and LA103 offer DELIFEQ or DELEX); fix says how.
func DeclareTarget(fs *flag.FlagSet, fix string) {
	declare(fs, OptTarget, "the server releases the code runs on, as LA112's -target (the same setting): "+fix)
}

func declare(fs *flag.FlagSet, name, use string) {
	def, ok := defaultText(name)
	if !ok {
		panic("settings.Declare: unknown option " + name)
	}
	fs.Var(declared{name: name, def: def}, name, use)
}

// defaultText is the default of an option as its flag shows it: what
// Default().value(name).String() returns, without compiling the default
// patterns (analyzers declare their options in init, at every start-up).
func defaultText(name string) (string, bool) {
	switch name {
	case OptTarget:
		return DefaultTarget, true
	case OptLockKeys:
		return strings.Join(DefaultLockKeys, ","), true
	case OptFenceKeys:
		return strings.Join(DefaultFenceKeys, ","), true
	case OptFenceColumn:
		return strings.Join(DefaultFenceColumns, ","), true
	case OptWriters:
		return "", true
	}
	return "", false
}

// usage is each option's flag usage.
var usage = map[string]string{
	OptTarget:      "oldest server release any promotable node runs, or a comma-separated list of the releases in the fleet: valkey-7.2 ... valkey-9.2, redis-6.0 ... redis-8.6 (default " + DefaultTarget + ")",
	OptLockKeys:    "regular expression for lock-key text, matched case-insensitively (repeat the flag for several; the first replaces the default " + quoteList(DefaultLockKeys) + "); one setting for every rule that decides what is lock code (lock evidence)",
	OptFenceKeys:   "regular expression for fencing-counter key text (repeat for several; the first replaces the default " + quoteList(DefaultFenceKeys) + "); shared by LA109, LA110 and LA113",
	OptFenceColumn: "regular expression for SQL columns holding the fence (repeat for several; the first replaces the default " + quoteList(DefaultFenceColumns) + ")",
	OptWriters:     "comma-separated protected-resource writers added to the defaults, e.g. (*database/sql.DB).ExecContext,example.com/repo.SaveInvoice; shared by LA110 and LA111",
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}

// declared is the flag.Value of a declared option on a shared analyzer: it
// shows the default and refuses to be set.
type declared struct{ name, def string }

func (d declared) String() string { return d.def }

func (d declared) Set(string) error {
	return fmt.Errorf("-%s is an option of a run: set it on the run's settings (lockaudit binds the flags of the analyzers it runs)", d.name)
}

// FlagSet returns a copy of an analyzer's flags in which every declared
// option sets s: the same names, usage and defaults, so go vet's and
// golangci-lint's flags write into this run's settings. Other flags are
// kept as they are.
func (s *Settings) FlagSet(fs *flag.FlagSet) flag.FlagSet {
	out := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(declared); !ok {
			out.Var(f.Value, f.Name, f.Usage)
			return
		}
		out.Var(s.value(f.Name), f.Name, f.Usage)
		out.Lookup(f.Name).DefValue = f.DefValue
	})
	return *out
}
