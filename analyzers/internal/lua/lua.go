// Package lua classifies Lua scripts sent to Valkey/Redis: does a script
// perform a lock step (compare-and-delete, compare-and-extend, a scripted
// acquire), and does it draw a fencing token?
//
// The classifier reads the script text only. It looks at redis.call /
// redis.pcall / server.call invocations and at how their results are
// compared, after normalising the text (comments removed, lower case, ' as ",
// no whitespace around punctuation). It is deliberately narrow: a step is
// recognised only when the key that is compared is the key that is deleted,
// expired or re-set, and the compared value comes from ARGV (the caller's
// token). Scripts that merely read, count, rate-limit, pop queues or cache
// values are not lock steps.
//
// Decisions worth knowing:
//   - GET == ARGV then SET of a *different* value (a generic compare-and-set
//     of a cached value) is not a lock step; GET == ARGV then SET of the same
//     ARGV with EX/PX/EXAT/PXAT is a compare-and-extend.
//   - SET ... PX without NX (valkeylock's fcqat/fcqms "force" scripts) is not
//     an acquire: by its text it is a cache write with a TTL.
//   - GET == ARGV then PTTL (bsm/redislock's luaPTTL) is an owner-checked
//     read, not a step: there is no native command to replace it with.
//   - INCR is a fencing step only in a script that also acquires; alone it is
//     a counter.
package lua

import (
	"regexp"
	"strings"
)

// Step is a set of lock steps a script performs.
type Step uint8

const (
	Release Step = 1 << iota // GET == ARGV then DEL/UNLINK of the same key
	Extend                   // GET == ARGV then PEXPIRE/EXPIRE/PEXPIREAT/EXPIREAT, or SET key ARGV PX
	Acquire                  // SET key ARGV NX with EX/PX/EXAT/PXAT, or SETNX then (P)EXPIRE of the same key
	Fence                    // INCR/INCRBY in a script that also acquires
)

// IsLock reports whether s contains a lock step (release, extend or acquire).
func (s Step) IsLock() bool { return s&(Release|Extend|Acquire) != 0 }

// String lists the steps: "release", "extend+acquire", "none".
func (s Step) String() string {
	var parts []string
	for _, p := range []struct {
		bit  Step
		name string
	}{{Release, "release"}, {Extend, "extend"}, {Acquire, "acquire"}, {Fence, "fence"}} {
		if s&p.bit != 0 {
			parts = append(parts, p.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// Classify returns the lock steps the script performs.
func Classify(src string) Step {
	text := Normalize(src)
	calls := findCalls(text)
	var s Step

	// Acquire: SET key ARGV NX + expiry, or SETNX key then (P)EXPIRE key.
	for i, c := range calls {
		switch c.cmd {
		case "set":
			if len(c.args) >= 2 && isKey(c.args[0]) && hasWord(c.args[2:], "nx") && expiry(c.args[2:]) {
				s |= Acquire
			}
		case "setnx":
			if len(c.args) >= 1 && isKey(c.args[0]) {
				for _, d := range calls[i+1:] {
					if expireCmds[d.cmd] && len(d.args) >= 1 && d.args[0] == c.args[0] {
						s |= Acquire
					}
				}
			}
		}
	}

	// Compare-and-delete / compare-and-extend.
	for _, cmp := range ownerChecks(text, calls) {
		for _, d := range calls {
			if d.pos < cmp.pos || len(d.args) == 0 || d.args[0] != cmp.key {
				continue
			}
			switch {
			case d.cmd == "del" || d.cmd == "unlink":
				s |= Release
			case expireCmds[d.cmd]:
				s |= Extend
			case d.cmd == "set" && len(d.args) >= 2 && d.args[1] == cmp.argv && !hasWord(d.args[2:], "nx") && expiry(d.args[2:]):
				s |= Extend
			}
		}
	}

	if s&Acquire != 0 {
		for _, c := range calls {
			if c.cmd == "incr" || c.cmd == "incrby" {
				s |= Fence
			}
		}
	}
	return s
}

var expireCmds = map[string]bool{"pexpire": true, "expire": true, "pexpireat": true, "expireat": true}

var (
	lineComment  = regexp.MustCompile(`--[^\n]*`)
	blockComment = regexp.MustCompile(`(?s)--\[(=*)\[.*?\]=*\]`)
	spaces       = regexp.MustCompile(`\s+`)
	// a space next to punctuation carries no meaning; after a closing
	// bracket it is kept so that "argv[1] then" stays two words
	punctSpace = regexp.MustCompile(` ?([(\[{,;=~<>+*/%^#.-]) ?`)
	closeSpace = regexp.MustCompile(` ([)\]}])`)
	localAlias = regexp.MustCompile(`local ((?:[a-z_][a-z0-9_]*,?)+)=((?:(?:keys|argv)\[\d+\],?)+)(?: |;|$)`)
)

// Normalize lower-cases the script, removes comments, turns ' into ", and
// removes whitespace except a single space between words.
func Normalize(src string) string {
	s := blockComment.ReplaceAllString(src, " ")
	s = lineComment.ReplaceAllString(s, " ")
	s = strings.ToLower(strings.ReplaceAll(s, "'", `"`))
	s = strings.TrimSpace(spaces.ReplaceAllString(s, " "))
	s = punctSpace.ReplaceAllString(s, "$1")
	s = closeSpace.ReplaceAllString(s, "$1")
	s = strings.ReplaceAll(s, "server.call(", "redis.call(")
	s = strings.ReplaceAll(s, "redis.pcall(", "redis.call(")
	s = strings.ReplaceAll(s, "server.pcall(", "redis.call(")
	return substituteAliases(s)
}

// substituteAliases replaces locals that only name KEYS[n] or ARGV[n]
// (local key = KEYS[1]; local token, ttl = ARGV[1], ARGV[2]) by what they
// name, so that later comparisons see keys[1] and argv[1].
func substituteAliases(s string) string {
	for _, m := range localAlias.FindAllStringSubmatch(s, -1) {
		names := strings.Split(strings.TrimSuffix(m[1], ","), ",")
		vals := strings.Split(strings.TrimSuffix(m[2], ","), ",")
		if len(names) != len(vals) {
			continue
		}
		for i, n := range names {
			re := regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`)
			start := strings.Index(s, m[0]) + len(m[0])
			s = s[:start] + re.ReplaceAllString(s[start:], vals[i])
		}
	}
	return s
}

type call struct {
	pos, end int // byte offsets of "redis.call(" and after ")"
	cmd      string
	args     []string // arguments after the command name, normalised text
}

// findCalls lists redis.call invocations whose command is a string literal.
func findCalls(s string) []call {
	var out []call
	const open = "redis.call("
	for i := 0; ; {
		j := strings.Index(s[i:], open)
		if j < 0 {
			return out
		}
		start := i + j
		argStart := start + len(open)
		args, end := splitArgs(s, argStart)
		i = argStart
		if len(args) == 0 || !strings.HasPrefix(args[0], `"`) || !strings.HasSuffix(args[0], `"`) || len(args[0]) < 2 {
			continue
		}
		out = append(out, call{pos: start, end: end, cmd: strings.Trim(args[0], `"`), args: args[1:]})
	}
}

// splitArgs splits the argument list starting at s[from] (just after the
// opening parenthesis) at top-level commas; it returns the arguments and the
// offset after the closing parenthesis.
func splitArgs(s string, from int) ([]string, int) {
	var args []string
	depth, last, inStr := 0, from, false
	for i := from; i < len(s); i++ {
		c := s[i]
		if inStr {
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if a := strings.TrimSpace(s[last:i]); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, i + 1
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[last:i]))
				last = i + 1
			}
		}
	}
	return args, len(s)
}

var keyRe = regexp.MustCompile(`^keys\[\d+\]$`)

func isKey(a string) bool { return keyRe.MatchString(a) }

func hasWord(args []string, w string) bool {
	for _, a := range args {
		if a == `"`+w+`"` {
			return true
		}
	}
	return false
}

func expiry(args []string) bool {
	return hasWord(args, "px") || hasWord(args, "ex") || hasWord(args, "pxat") || hasWord(args, "exat")
}

// ownerCheck is a comparison of GET key with an ARGV value.
type ownerCheck struct {
	pos  int    // where the comparison is
	key  string // keys[n]
	argv string // argv[m]
}

// ownerChecks finds GET key compared (== or ~=) with ARGV, directly
// (redis.call("get",keys[1])==argv[1]) or through a local
// (local v=redis.call("get",keys[1]) ... v~=argv[1]).
func ownerChecks(s string, calls []call) []ownerCheck {
	var out []ownerCheck
	for _, c := range calls {
		if c.cmd != "get" || len(c.args) != 1 || !isKey(c.args[0]) {
			continue
		}
		key := c.args[0]
		// redis.call("get",k)==argv[1]
		if m := cmpAfter.FindStringSubmatch(s[c.end:]); m != nil {
			out = append(out, ownerCheck{pos: c.end, key: key, argv: m[1]})
			continue
		}
		// argv[1]==redis.call("get",k)
		if m := cmpBefore.FindStringSubmatch(s[:c.pos]); m != nil {
			out = append(out, ownerCheck{pos: c.pos, key: key, argv: m[1]})
			continue
		}
		// local v=redis.call("get",k) ... v==argv[1]
		m := assignBefore.FindStringSubmatch(s[:c.pos])
		if m == nil {
			continue
		}
		v := regexp.QuoteMeta(m[1])
		use := regexp.MustCompile(`(?:\b` + v + `(?:==|~=)(argv\[\d+\]))|(?:(argv\[\d+\])(?:==|~=)` + v + `\b)`)
		rest := s[c.end:]
		if u := use.FindStringSubmatchIndex(rest); u != nil {
			argv := ""
			if u[2] >= 0 {
				argv = rest[u[2]:u[3]]
			} else {
				argv = rest[u[4]:u[5]]
			}
			out = append(out, ownerCheck{pos: c.end + u[0], key: key, argv: argv})
		}
	}
	return out
}

var (
	cmpAfter     = regexp.MustCompile(`^(?:==|~=)(argv\[\d+\])`)
	cmpBefore    = regexp.MustCompile(`(argv\[\d+\])(?:==|~=)$`)
	assignBefore = regexp.MustCompile(`(?:^|[ ;(])(?:local )?([a-z_][a-z0-9_]*)=$`)
)
