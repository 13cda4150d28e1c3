// Package secret recognises credentials where lockaudit never takes them:
// in a server address (a flag, an inventory, the config file) or any other
// config value. The password comes from LOCKAUDIT_PASSWORD or a password
// file only, because a command line ends up in shell history and ps, and a
// config file in version control. Callers refuse such a value with Refusal
// and never echo it: an error message is the most copied text there is.
package secret

import (
	"regexp"
	"strings"
	"sync"
)

// Env is the environment variable that holds the password. lockaudit
// removes it from its own environment at start, so no process it starts
// (go list, the compiler, test servers) inherits it.
const Env = "LOCKAUDIT_PASSWORD"

// Refusal says why a value was refused, without the value.
const Refusal = "looks like a URL or carries credentials (user:pass@, pass@, redis://, rediss://, valkey://), so it is not shown; give HOST:PORT, and the password through LOCKAUDIT_PASSWORD or a password file"

// InAddr reports whether a server address is a URL or carries credentials:
// user:pass@host:port, pass@host:port, redis://…, rediss://…, valkey://….
// An address is HOST:PORT, which has neither "@" nor "://".
func InAddr(addr string) bool {
	return strings.Contains(addr, "@") || strings.Contains(addr, "://")
}

// valueRE matches credentials in a value that is not meant to be an
// address: a server URL, any URL with user info, or NAME@HOST:PORT.
var valueRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(redis|rediss|valkey|valkeys)://|\b[a-z][a-z0-9+.-]*://[^/\s]*@|^[^\s@/]+@[^\s@/]+:\d+$`)
})

// InValue reports whether a config value looks like it holds credentials
// (a lock-key pattern or a writer name never does).
func InValue(v string) bool {
	return valueRE().MatchString(v)
}

// Redacted is what Redactor writes in place of a secret.
const Redacted = "[redacted]"

// minRedact is the shortest secret Redactor replaces: a shorter one
// would mangle every text, and no message is ever built from a secret —
// redaction is a second line of defence.
const minRedact = 3

// Redactor returns the one function that removes secrets (the password,
// from LOCKAUDIT_PASSWORD or a password file) from text: what a server
// answered, and every text that goes into a report, the consultant's
// notes included. Empty and very short secrets are left alone.
func Redactor(secrets ...string) func(string) string {
	var pairs []string
	for _, s := range secrets {
		if len(s) >= minRedact {
			pairs = append(pairs, s, Redacted)
		}
	}
	if len(pairs) == 0 {
		return func(s string) string { return s }
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace
}
