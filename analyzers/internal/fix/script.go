package fix

import (
	"regexp"
	"strings"
	"sync"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
)

// CompareAndDelete reports whether a Lua script is exactly the classic
// compare-and-delete of KEYS[1] against ARGV[1] that replies 1 when it
// deleted the key and 0 otherwise, which is what DELIFEQ KEYS[1] ARGV[1]
// replies:
//
//	if redis.call("get", KEYS[1]) == ARGV[1] then
//		return redis.call("del", KEYS[1])   -- or unlink
//	else
//		return 0
//	end
//
// in its usual spellings (either comparison order, ~= with the branches
// swapped, "end return 0" instead of else, locals naming KEYS[1] and
// ARGV[1], pcall, server.call). lua.Classify's Release is wider (it accepts
// any script that compares and deletes); a script that replies anything
// else (redsync's -1 for a missing key, a nil, a string), or does anything
// more, is not matched: rewriting its runs would change what the caller
// reads.
func CompareAndDelete(src string) bool {
	s := lua.Normalize(src)
	s = strings.TrimSpace(spaceRuns().ReplaceAllString(strings.ReplaceAll(s, ";", " "), " "))
	return cadRE().MatchString(s)
}

// The patterns are compiled on first use, not at start-up.
var (
	spaceRuns = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` +`) })
	cadRE     = sync.OnceValue(func() *regexp.Regexp {
		get := `redis\.call\("get",keys\[1\]\)`
		eq := `(?:` + get + `==argv\[1\]|argv\[1\]==` + get + `)`
		ne := `(?:` + get + `~=argv\[1\]|argv\[1\]~=` + get + `)`
		del := `return redis\.call\("(?:del|unlink)",keys\[1\]\)`
		zero := `return 0`
		alias := `(?:local [a-z_][a-z0-9_]*(?:,[a-z_][a-z0-9_]*)*=(?:keys|argv)\[1\](?:,(?:keys|argv)\[1\])* )*`
		forms := []string{
			`if ` + eq + ` then ` + del + ` else ` + zero + ` end`,
			`if ` + eq + ` then ` + del + ` end ` + zero,
			`if ` + ne + ` then ` + zero + ` else ` + del + ` end`,
			`if ` + ne + ` then ` + zero + ` end ` + del,
		}
		return regexp.MustCompile(`^` + alias + `(?:` + strings.Join(forms, "|") + `)$`)
	})
)
