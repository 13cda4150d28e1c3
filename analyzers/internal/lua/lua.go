// Package lua classifies Lua scripts sent to Valkey/Redis: does a script
// perform a lock step (compare-and-delete, compare-and-extend, a scripted
// acquire), and does it draw a fencing token?
//
// The classifier reads the script text only, in one pass (its cost is linear
// in the script's length). It parses the Lua, follows values through locals,
// and looks at redis.call / redis.pcall / server.call invocations and at how
// their results are compared. It is deliberately narrow: a step is
// recognised only when the key that is compared is the key that is deleted,
// expired or re-set, and the compared value is an ARGV value (the caller's
// token). A key may be KEYS[i], an ARGV value, or data read or built from
// them (local k = redis.call("HGET", KEYS[1], "f"), "lock:" .. ARGV[1]),
// directly or through locals; a key or token that is a constant, or that
// the text cannot follow (a function parameter, a variable assigned on only
// one branch), makes no step. Scripts that merely read, count, rate-limit,
// pop queues or cache values are not lock steps.
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
//   - EXISTS == 0 then SET and PEXPIRE (a Redisson-style mutex's acquire)
//     is not an acquire but a guarded set (Detail.Guarded), and a DEL or
//     PEXPIRE of a key the script never compares is listed (Detail.Deletes,
//     Expires): a cache fill, an invalidation and a rate limiter's window
//     read the same, so whether they are a lock's steps is for the Go side
//     to say.
package lua

import (
	"slices"
	"strconv"
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
func Classify(src string) Step { return Analyze(src).Steps }

// Detail is what a script does as a lock step, with where: the KEYS and
// ARGV the steps use, for the layers that map them to the caller's
// arguments, and where in the text the first step is, for messages.
type Detail struct {
	Steps Step
	// Key is the 1-based KEYS index of the key the first lock step works
	// on when that key is KEYS[i] itself; 0 when it is not (a key built or
	// read in Lua, an ARGV value).
	Key int
	// Token is the 1-based ARGV index of the value an acquire writes (SET
	// KEYS[i] ARGV[n] NX PX ...), or a guarded set in a script without one
	// (Guarded); 0 when there is neither or the value is not ARGV[n] itself.
	Token int
	// Const is set when the value an acquire writes is a literal in the
	// text (SET KEYS[1] '1' NX EX 60): every run writes the same value,
	// so it cannot tell one holder from another. ConstText is the
	// literal as written.
	Const     bool
	ConstText string
	// Reenter is set when the script also extends the key it acquires
	// after comparing it with the very value the acquire writes (SET
	// KEYS[1] ARGV[1] NX PX ..., else GET KEYS[1] == ARGV[1] then PEXPIRE),
	// or raises a counter whose key is built from that value (INCR
	// KEYS[1]..':count:'..ARGV[1]): the owner's re-acquire and hold count
	// of a reentrant lock, whose token is the owner's identity by design.
	// Also set for a guarded set whose key the script otherwise compares
	// with the value it sets, and extends (EXISTS, then GET == ARGV[2] and
	// EXPIRE, else SETEX KEYS[1] ARGV[1] ARGV[2]).
	Reenter bool
	// Offset is the byte offset in the text of the first lock step's call
	// (-1 when there is none).
	Offset int
	// Guarded is the 1-based KEYS index of a key the script sets only after
	// an EXISTS of it, with a TTL (EXISTS == 0 then SET and PEXPIRE, or
	// SET ... PX, SETEX): a set-if-absent without NX; its key may be
	// compared elsewhere in the script only with the value it writes (the
	// owner's re-entry). By its text it is a cache
	// fill; only the Go side can show it to be a lock's acquire (the keys
	// layer). 0 when there is none. In a script without an acquire, Token,
	// Const and ConstText describe the value the guarded set writes.
	Guarded int
	// TTL is the 1-based ARGV index of the amount the acquire (or, in a
	// script without one, the guarded set) gives its key, and TTLUnit the
	// option or command that reads it: "EX" or "PX" of the SET, "SETEX",
	// "PSETEX", or the "EXPIRE"/"PEXPIRE" of the key after its SETNX or
	// TTL-less guarded SET. 0 and "" when the amount is not ARGV[n] itself
	// (tonumber(ARGV[n]) counts) or is an absolute time (EXAT, PXAT).
	TTL     int
	TTLUnit string
	// Deletes and Expires are the 1-based KEYS indexes the script deletes
	// (DEL, UNLINK) or gives a TTL (the EXPIRE family) without comparing
	// the key's value anywhere in the script: an owner-less release or
	// extend when the key is a lock's, which only the Go side can say. An
	// EXPIRE after a SET or SETNX of the same key (its TTL) is not listed.
	Deletes, Expires []int
	// Paired lists the DELs and EXPIREs of one KEYS key that follow an
	// owner check of another (GET KEYS[1] == ARGV[1] then PEXPIRE
	// KEYS[2]): by the text, a step of a key nobody compared; at a run
	// that passes the same key for both, a compare-and-delete or
	// compare-and-extend. Only the caller's arguments can say which, so
	// the resolve layer decides it at the runs (Pair).
	Paired []Pair
	// TooLarge says the text is beyond what the classifier reads (blocks
	// or expressions nested deeper than Lua's parser accepts): Steps then
	// says nothing, and the script must be reported as not classified,
	// never taken for one without lock steps.
	TooLarge bool
}

// Pair is a step of KEYS[Key] guarded by an owner check of KEYS[Checked]
// (Detail.Paired): Step (Release or Extend) when both are the same key.
type Pair struct {
	Step         Step
	Checked, Key int
	Offset       int // the byte offset of the step's call
}

// TooLargeReason says why a TooLarge script was not classified.
const TooLargeReason = "blocks or expressions nested deeper than 200 levels"

// Line returns the 1-based line of the first lock step in src (0 when
// there is none).
func (d Detail) Line(src string) int {
	if d.Offset < 0 || d.Offset > len(src) {
		return 0
	}
	return strings.Count(src[:d.Offset], "\n") + 1
}

// Analyze returns the lock steps the script performs, and where.
func Analyze(src string) Detail {
	p := parse(src)
	setnx := firstCalls(p.calls, func(c cmdCall) bool { return c.cmd == "setnx" && c.args[0].keyLike() })
	d := Detail{Offset: -1, TooLarge: p.tooLarge}
	if p.tooLarge {
		return d
	}
	incr := false
	acquired := ""       // the key id of the first acquire
	var counted []string // the key ids INCR raises
	for _, c := range p.calls {
		if c.cmd == "incr" || c.cmd == "incrby" {
			incr = true
			if len(c.args) > 0 {
				counted = append(counted, c.args[0].id)
			}
			continue
		}
		if len(c.args) == 0 || !c.args[0].keyLike() {
			continue
		}
		key := c.args[0].id
		var s Step
		switch {
		case c.cmd == "set" && len(c.args) >= 2:
			opts := c.args[2:]
			switch {
			case !expiry(opts):
			case hasWord(opts, "nx"): // SET key ARGV NX PX ttl
				s = Acquire
				if d.Steps&Acquire == 0 {
					d.Token = index(c.args[1].id, "A[")
					d.Const, d.ConstText = c.args[1].constant, c.args[1].lit
					d.TTL, d.TTLUnit = ttlOf(c)
					acquired = key
				}
			case c.args[1].from == fromArg: // GET key == ARGV then SET key ARGV PX ttl
				if at, ok := p.tokened[check{key, c.args[1].id}]; ok && at < c.pos {
					s = Extend
				}
			}
		case c.cmd == "del" || c.cmd == "unlink":
			if before(p.checked, key, c.pos) {
				s = Release
			} else {
				d.pair(p, Release, key, c.pos)
			}
		case expireCmds[c.cmd]:
			if before(p.checked, key, c.pos) {
				s |= Extend
			} else {
				d.pair(p, Extend, key, c.pos)
			}
			if before(setnx, key, c.pos) {
				s |= Acquire
				if d.Steps&Acquire == 0 {
					v := setnxValue(p.calls, key)
					d.Token = index(v.id, "A[")
					d.Const, d.ConstText = v.constant, v.lit
					d.TTL, d.TTLUnit = ttlOf(c)
					acquired = key
				}
			}
		}
		if s != 0 && d.Offset < 0 {
			d.Offset, d.Key = c.pos, index(key, "K[")
		}
		d.Steps |= s
	}
	if d.Steps&Acquire != 0 && incr {
		d.Steps |= Fence
	}
	if d.Token > 0 {
		token := "A[n:" + strconv.Itoa(d.Token) + "]"
		_, d.Reenter = p.tokened[check{acquired, token}]
		d.Reenter = d.Reenter && d.Steps&Extend != 0 || slices.ContainsFunc(counted, func(id string) bool { return id != token && strings.Contains(id, token) })
	}
	d.unchecked(p)
	return d
}

// pair records a step of KEYS key (a KEYS[n] itself) that follows an owner
// check of another KEYS key (Detail.Paired): the first such check.
func (d *Detail) pair(p *parser, step Step, key string, pos int) {
	n := index(key, "K[")
	if n == 0 {
		return
	}
	checked, first := 0, pos
	for id, at := range p.checked {
		if m := index(id, "K["); m > 0 && m != n && (at < first || at == first && m < checked) {
			checked, first = m, at
		}
	}
	if checked > 0 {
		d.Paired = append(d.Paired, Pair{Step: step, Checked: checked, Key: n, Offset: pos})
	}
}

// before reports whether m records key at a position before pos.
func before(m map[string]int, key string, pos int) bool {
	at, ok := m[key]
	return ok && at < pos
}

// firstCalls maps each key id to the position of the first call that
// matches and has that key as its first argument.
func firstCalls(calls []cmdCall, match func(cmdCall) bool) map[string]int {
	first := map[string]int{}
	for _, c := range calls {
		if len(c.args) == 0 || !match(c) {
			continue
		}
		if _, ok := first[c.args[0].id]; !ok {
			first[c.args[0].id] = c.pos
		}
	}
	return first
}

// unchecked sets Guarded, Deletes and Expires: what the script does to a
// KEYS key whose value it never compares.
func (d *Detail) unchecked(p *parser) {
	written := firstCalls(p.calls, func(c cmdCall) bool {
		return c.cmd == "set" || c.cmd == "setnx" || c.cmd == "setex" || c.cmd == "psetex"
	})
	for _, c := range p.calls {
		if len(c.args) == 0 {
			continue
		}
		key := c.args[0].id
		n := index(key, "K[")
		if n == 0 {
			continue
		}
		if v, ttl, ok := guardedSet(c); ok {
			// A key compared only with the value the set writes is the
			// owner's re-entry (EXISTS, then GET == ARGV[2] and EXPIRE,
			// else SETEX KEYS[1] ARGV[1] ARGV[2]); any other compare is
			// a compare-and-set, no guarded set.
			_, reenter := p.tokened[check{key, v.id}]
			if _, checked := p.checked[key]; checked && !reenter || d.Guarded != 0 || !before(p.exists, key, c.pos) ||
				!ttl && !expiredAfter(p.calls, key, c.pos) {
				continue
			}
			d.Guarded = n
			if d.Steps&Acquire == 0 {
				d.Token = index(v.id, "A[")
				d.Const, d.ConstText = v.constant, v.lit
				d.Reenter = reenter && d.Steps&Extend != 0
				if !ttl {
					c = expireAfter(p.calls, key, c.pos)
				}
				d.TTL, d.TTLUnit = ttlOf(c)
			}
			continue
		}
		if _, checked := p.checked[key]; checked {
			continue
		}
		switch {
		case c.cmd == "del" || c.cmd == "unlink":
			if !slices.Contains(d.Deletes, n) {
				d.Deletes = append(d.Deletes, n)
			}
		case expireCmds[c.cmd]:
			if !before(written, key, c.pos) && !slices.Contains(d.Expires, n) {
				d.Expires = append(d.Expires, n)
			}
		}
	}
}

// guardedSet reads a call that sets a key without NX or XX: the value it
// writes and whether it sets a TTL (SET key value [EX ...], SETEX and
// PSETEX key ttl value).
func guardedSet(c cmdCall) (v value, ttl, ok bool) {
	switch {
	case c.cmd == "set" && len(c.args) >= 2:
		opts := c.args[2:]
		return c.args[1], expiry(opts), !hasWord(opts, "nx") && !hasWord(opts, "xx")
	case (c.cmd == "setex" || c.cmd == "psetex") && len(c.args) >= 3:
		return c.args[2], true, true
	}
	return value{}, false, false
}

// expiredAfter reports whether an EXPIRE-family call of key follows pos.
func expiredAfter(calls []cmdCall, key string, pos int) bool {
	return expireAfter(calls, key, pos).cmd != ""
}

// expireAfter is the first EXPIRE-family call of key after pos (the zero
// cmdCall when there is none).
func expireAfter(calls []cmdCall, key string, pos int) cmdCall {
	for _, c := range calls {
		if c.pos > pos && expireCmds[c.cmd] && len(c.args) >= 1 && c.args[0].id == key {
			return c
		}
	}
	return cmdCall{}
}

// ttlOf reads the relative TTL a call gives its key when the amount is an
// ARGV value (Detail.TTL): SET's EX or PX, SETEX/PSETEX, EXPIRE/PEXPIRE.
func ttlOf(c cmdCall) (int, string) {
	var amount value
	var unit string
	switch c.cmd {
	case "set":
		if len(c.args) > 2 {
			opts := c.args[2:]
			if i := wordIndex(opts, "ex", "px"); i >= 0 && i+1 < len(opts) {
				amount, unit = opts[i+1], opts[i].str
			}
		}
	case "setex", "psetex", "expire", "pexpire":
		if len(c.args) >= 2 {
			amount, unit = c.args[1], c.cmd
		}
	}
	n := index(amount.id, "A[")
	if n == 0 {
		n = index(amount.number, "A[")
	}
	if n == 0 {
		return 0, ""
	}
	return n, strings.ToUpper(unit)
}

// index reads the 1-based index of KEYS[n] or ARGV[n] from a value id
// ("K[n:2]"); 0 for anything else.
func index(id, prefix string) int {
	rest, ok := strings.CutPrefix(id, prefix+"n:")
	if !ok || !strings.HasSuffix(rest, "]") {
		return 0
	}
	n := 0
	for _, c := range rest[:len(rest)-1] {
		if c < '0' || c > '9' || n > 1<<20 {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// setnxValue is the value the first SETNX of key writes.
func setnxValue(calls []cmdCall, key string) value {
	for _, c := range calls {
		if c.cmd == "setnx" && len(c.args) >= 2 && c.args[0].id == key {
			return c.args[1]
		}
	}
	return value{}
}

var expireCmds = map[string]bool{"pexpire": true, "expire": true, "pexpireat": true, "expireat": true}

// wordIndex is the index of the first argument that is one of the words
// (lower case), -1 when none is.
func wordIndex(args []value, words ...string) int {
	for i, a := range args {
		if a.isStr && slices.Contains(words, a.str) {
			return i
		}
	}
	return -1
}

func hasWord(args []value, w string) bool { return wordIndex(args, w) >= 0 }

func expiry(args []value) bool { return wordIndex(args, "px", "ex", "pxat", "exat") >= 0 }

// Normalize renders the script as one line for matching exact forms: comments
// removed, lower case, string literals in double quotes, no whitespace next
// to punctuation and a single space between words, server.call and pcall
// spelled redis.call, and locals that only name KEYS[n] or ARGV[n]
// (local key, token = KEYS[1], ARGV[1]) replaced by what they name after
// their declaration.
func Normalize(src string) string {
	lx := lexer{src: src}
	next := func(lx *lexer) token {
		t := lx.next()
		if t.kind == tName || t.kind == tNumber {
			t.text = strings.ToLower(t.text)
		}
		return t
	}
	var b strings.Builder
	b.Grow(len(src))
	aliases := map[string]string{}
	var names, vals []string // of the alias declaration being written
	verbatim := 0            // its tokens still to write as they are
	prev := token{}
	for {
		t := next(&lx)
		if t.kind == tEOF {
			return b.String()
		}
		if verbatim == 0 && names != nil {
			for k, n := range names {
				aliases[n] = vals[k]
			}
			names = nil
		}
		text := t.text
		switch t.kind {
		case tString:
			text = `"` + strings.ToLower(t.text) + `"`
		case tName:
			ahead := lx
			dot, call := next(&ahead), next(&ahead)
			if (text == "redis" || text == "server") && dot.is(".") && (call.is("call") || call.is("pcall")) {
				text, lx = "redis.call", ahead
			} else if a, ok := aliases[text]; ok && verbatim == 0 && !prev.is(".") && !prev.is(":") {
				text = a
			}
		}
		if t.gap && prev.text != "" && !punct(prev.text) && !punct(text) && !strings.ContainsAny(text[:1], ")]}") {
			b.WriteByte(' ')
		}
		b.WriteString(text)
		prev = token{kind: t.kind, text: text}
		if verbatim > 0 {
			verbatim--
		}
		if t.is("local") {
			names, vals, verbatim = aliasDecl(lx, next)
		}
	}
}

// punct reports whether a normalised token sticks to its neighbours.
func punct(s string) bool { return s != "" && strings.ContainsAny(s[:1], "([{,;=~<>+*/%^#.-") }

// aliasDecl reads "n1, n2 = keys[1], argv[2]" from lx (just after local)
// and returns the names, what they name and the number of tokens the
// declaration takes; n is 0 when the declaration is anything else.
func aliasDecl(lx lexer, next func(*lexer) token) (names, vals []string, n int) {
	tok := func() token { n++; return next(&lx) }
	for {
		t := tok()
		if t.kind != tName || keywords[t.text] {
			return nil, nil, 0
		}
		names = append(names, t.text)
		if t = tok(); t.is("=") {
			break
		} else if !t.is(",") {
			return nil, nil, 0
		}
	}
	for {
		t, open, num, cl := tok(), tok(), tok(), tok()
		if t.kind != tName || t.text != "keys" && t.text != "argv" || !open.is("[") || num.kind != tNumber || !cl.is("]") {
			return nil, nil, 0
		}
		vals = append(vals, t.text+"["+num.text+"]")
		ahead := lx
		if t := next(&ahead); t.is(",") {
			tok()
			continue
		} else if len(vals) != len(names) || t.kind == tOp && !t.is(";") || t.kind != tOp && t.kind != tName && t.kind != tEOF || t.is("and") || t.is("or") {
			// the values must end the expression: a new statement, ; or the end
			return nil, nil, 0
		}
		return names, vals, n
	}
}
