package resolve

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
)

// Summary is the fact the layer exports for a wrapper: a function, method
// or interface method of the package that sends a command, runs or builds
// a script, or calls a lock library for its caller — directly or through
// another wrapper — with the parameters that carry its key, token, TTL,
// keys, ARGV and script text. Callers in this package and in the packages
// that import it resolve a call of the wrapper to the Ops it describes
// (Op.Via), with their own arguments in place of the parameters.
//
// Parameter indexes count the signature's parameters (a method's receiver
// is not one, a context is); -1 means "not a parameter": the wrapper sets
// it itself, and the caller does not see it.
type Summary struct {
	Ops []OpSummary
}

// OpSummary is one Op a wrapper sends.
type OpSummary struct {
	Kind   Kind
	Client string // the client's key (clientKey): a knowledge path, "#lib" for a client package's lock library
	Name   string // the command (Command), "" otherwise
	Method string // Library: the library method
	Step   string // Library: acquire, extend, release ...

	NX, XX, GET bool
	Cond        string
	TTL         TTL
	// DurationTTL: the caller's TTLArg decides the TTL as a duration does
	// (0: none), as for a go-redis SetNX.
	DurationTTL bool
	Complete    bool

	Keys     []int // the parameter of each key (-1: set by the wrapper)
	KeysFrom int   // the parameter holding all keys as a slice (Keys is then nil)
	Value    int   // SET's value (the token)
	Match    int   // the IFEQ / DELIFEQ comparison value
	TTLArg   int   // the TTL or amount
	Argv     []int // the parameter of each ARGV value of a script run
	ArgvFrom int   // the parameter holding ARGV as a slice or args... (Argv is then nil)
	// NumKeysArg and KeysArgvFrom: the parameters of an EVAL's key count
	// and of the one list holding its keys, then its ARGV (redigo's
	// keysAndArgs); the caller's count splits the caller's list.
	NumKeysArg, KeysArgvFrom int

	// Script: the parameter of the script's text (EVAL, a script
	// constructor), of the script object a run uses, or (Steps set, both
	// -1) a script the wrapper fixes.
	TextArg   int
	ObjectArg int
	Scripted  bool // the wrapper runs a script it fixes: Script is what it does
	Script    lua.Detail
	// Where is the wrapper's script, for messages ("redislock.go:26",
	// "lockscript.lua:4").
	Where string
	// EvalCmd and NumKeys: what a script object built by a constructor
	// wrapper sends when it runs, and its key count (redigo, radix v3).
	EvalCmd string
	NumKeys int

	// Checked: a DEL the wrapper sends only after a GET of the same key
	// whose reply it compares with Match, in another round trip (a
	// GET-compare-then-DEL helper: Name is the DEL).
	Checked bool
	// ExpireAt: a TTL-less SET NX or SETNX after which the wrapper sends
	// an EXPIRE of the same key in another round trip, and where that
	// EXPIRE is sent ("redis.go:88"): a set-if-absent-then-expire helper.
	ExpireAt string

	// Results says what each of the wrapper's results carries of the reply.
	Results []Carry
	// Dropped: the wrapper reads nothing of the reply but its error.
	Dropped bool
	// At is where the command is sent: "redis.go:1492".
	At string
}

// AFact makes Summary a go/analysis fact.
func (*Summary) AFact() {}

// String renders the summary for `// want fn:"..."` expectations:
// "EVALSHA keys=#2 argv=#3... script=#1 results=value,error".
func (s *Summary) String() string {
	var parts []string
	for _, o := range s.Ops {
		parts = append(parts, o.String())
	}
	return strings.Join(parts, "; ")
}

func (o OpSummary) String() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p := func(i int) string {
		if i < 0 {
			return "-"
		}
		return fmt.Sprintf("#%d", i)
	}
	list := func(is []int) string {
		var s []string
		for _, i := range is {
			s = append(s, p(i))
		}
		return strings.Join(s, ",")
	}
	switch o.Kind {
	case ScriptDef:
		w("SCRIPTDEF")
	case Library:
		w("LIB %s step=%s", o.Method, o.Step)
	default:
		w("%s", o.Name)
	}
	switch {
	case o.KeysFrom >= 0:
		w(" keys=%s...", p(o.KeysFrom))
	case len(o.Keys) > 0:
		w(" key=%s", list(o.Keys))
	}
	if o.Value >= 0 {
		w(" value=%s", p(o.Value))
	}
	if o.Match >= 0 {
		w(" match=%s", p(o.Match))
	}
	if o.Checked {
		w(" after-GET-check")
	}
	if o.ExpireAt != "" {
		w(" then-EXPIRE@%s", o.ExpireAt)
	}
	if o.NX {
		w(" NX")
	}
	if o.Cond != "" {
		w(" %s", o.Cond)
	}
	if o.Kind == Command && (o.Name == "SET" || o.Name == "SETNX") {
		w(" ttl=%s", [...]string{"none", "expire", "keepttl", "unknown"}[o.TTL])
	}
	if o.TTLArg >= 0 {
		w(" ttlarg=%s", p(o.TTLArg))
		if o.DurationTTL {
			w("(duration)")
		}
	}
	if o.KeysArgvFrom >= 0 {
		w(" numkeys=%s keysandargs=%s", p(o.NumKeysArg), p(o.KeysArgvFrom))
	}
	switch {
	case o.ArgvFrom >= 0:
		w(" argv=%s...", p(o.ArgvFrom))
	case len(o.Argv) > 0:
		w(" argv=%s", list(o.Argv))
	}
	switch {
	case o.TextArg >= 0:
		w(" text=%s", p(o.TextArg))
	case o.ObjectArg >= 0:
		w(" script=%s", p(o.ObjectArg))
	case o.Scripted:
		w(" script=%s", o.Script.Steps)
	}
	if !o.Complete {
		w(" incomplete")
	}
	var rs []string
	for _, c := range o.Results {
		rs = append(rs, [...]string{"-", "error", "lost", "value"}[c])
	}
	if len(rs) > 0 {
		w(" results=%s", strings.Join(rs, ","))
	}
	if o.Dropped {
		w(" dropped")
	}
	return b.String()
}

// Embedded is the fact the layer exports for an exported package-level
// string variable holding one //go:embed file: the file's text and its
// path as a message names it (the package's directory name and the file:
// "lua/lock.lua"). A script run in an importing package on that variable
// (client.Eval(ctx, lua.LuaLock, ...)) is read as one declared beside it.
type Embedded struct {
	Text, Source string
}

// AFact makes Embedded a go/analysis fact.
func (*Embedded) AFact() {}

func (e *Embedded) String() string { return "embeds " + e.Source }

// Reaches is the package fact of a package that reaches a known client:
// it imports one, directly or through packages that do. Packages without
// it have no wrappers and cost the layer nothing.
type Reaches struct{}

// AFact makes Reaches a go/analysis fact.
func (*Reaches) AFact() {}

func (*Reaches) String() string { return "reaches a client" }

// clientKeys names every client and lock library by a key a fact can
// carry: the first knowledge path of its package ("#lib" for a client
// package's lock library).
var (
	clientKeys  = map[*Client]string{}
	clientByKey = map[string]*pkgInfo{}
)

func indexClients() {
	for path, p := range knowledge {
		if old, ok := clientKeys[p.client]; !ok || path < old {
			clientKeys[p.client] = path
		}
		if p.lib != nil {
			if old, ok := clientKeys[p.lib]; !ok || path+"#lib" < old {
				clientKeys[p.lib] = path + "#lib"
			}
		}
	}
	for path, p := range knowledge {
		clientByKey[path] = p
		if p.lib != nil {
			clientByKey[path+"#lib"] = p
		}
	}
}

// wrapped returns the Client of a wrapper Op: the wrapped client's traits
// with API APIWrapper (one per client, shared).
func wrapped(c *Client) *Client {
	if c.API == APIWrapper {
		return c
	}
	wrappedMu.Lock()
	defer wrappedMu.Unlock()
	if w := wrappedClients[c]; w != nil {
		return w
	}
	w := *c
	w.API = APIWrapper
	wrappedClients[c], wrappedFrom[&w] = &w, c
	return &w
}

// IsClientPackage reports whether path is a package the layer knows (a
// client, a lock library, a command builder); vendor prefixes are
// stripped. Drivers use it to tell which dependencies may hold wrappers.
func IsClientPackage(path string) bool { return known(stripVendor(path)) != nil }
