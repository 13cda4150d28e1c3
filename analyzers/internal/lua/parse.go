package lua

import (
	"strconv"
	"strings"
)

// The parser walks a Lua chunk once, as Lua's own recursive-descent parser
// does, and evaluates every expression to a symbolic value: what it is
// derived from (the caller's KEYS, its ARGV, data read from keys, or nothing
// the caller passed) and an identity, so that the key a script compares is
// recognised as the key it deletes even when a local holds it. Along the way
// it records the facts Classify needs: GET results compared with an ARGV
// token, and the redis.call commands that can make a lock step.
//
// Locals follow Lua's scoping: a local is visible to the end of its block
// and hides an outer one of the same name. An assignment inside a branch or
// a loop body holds until the branch ends; after the if/while/for statement
// the variable's value is unknown (it depends on a path the text does not
// decide), which can only lose a lock step, never invent one.
//
// Nothing here fails: text that is not Lua is skipped a token at a time, and
// nesting deeper than Lua's own parser allows (200 levels) ends the walk with
// what was found so far.

// origin says what a value was computed from.
type origin uint8

const (
	fromNone origin = iota // a constant, a number, a function parameter: nothing the caller passed
	fromKey                // KEYS[i]
	fromArg                // ARGV[i]
	fromData               // computed from keys or arguments: a read of a key, a concatenation
)

type value struct {
	from  origin
	id    string // values with equal ids are the same value
	get   string // the key's id when the value is redis.call("GET", key)
	str   string // a string constant, lower case (command names, SET options)
	isStr bool
	// lit is the text of a string or number literal as written, with
	// constant set: the value every run of the script has.
	lit      string
	constant bool
	table    origin // fromKey for the KEYS table, fromArg for ARGV
	iter     origin // fromKey for ipairs(KEYS)/pairs(KEYS), fromArg likewise, fromData for a list read from the server
	// member is set on the loop variable of ipairs/pairs over a list read
	// from the server (for _, id in ipairs(redis.call("ZRANGE", ...))): the
	// id of one entry the script processes.
	member bool
	// absent marks the literals false and nil: a GET compared with one
	// asks whether the key exists.
	absent bool
	// number is the id of the value tonumber(x) converts: the amount a
	// TTL option reads is ARGV[n] whether or not it is converted first.
	number string
}

// keyLike reports whether v can name the key of a lock step: it comes from
// KEYS or ARGV, directly or through data read with them.
func (v value) keyLike() bool { return v.from != fromNone }

// maxDepth is the nesting of blocks and expressions Lua's parser accepts
// (LUAI_MAXCCALLS); deeper text is not a script a server would run, and
// the classifier stops there (Detail.TooLarge).
const maxDepth = 200

// maxID bounds a structural identity ("(K[n:1]..s:x)"); longer ones are
// replaced by a fresh identity, so building ids stays linear.
const maxID = 256

type binding struct {
	val   value
	depth int // depth of the scope that declared it; 0 for globals
	mark  int // id of the last scope that saved its value
}

type shadow struct {
	name string
	prev *binding
}

type saved struct {
	b   *binding
	old value
}

type scope struct {
	id, depth int
	parent    *scope
	declared  []shadow // locals declared here, with the bindings they hide
	assigned  []saved  // outer bindings assigned here, with their values before
}

// check is GET key compared with an ARGV token.
type check struct{ key, token string }

// cmdCall is a redis.call that can take part in a lock step.
type cmdCall struct {
	pos  int
	cmd  string
	args []value
}

type parser struct {
	lx      lexer
	tok     token
	depth   int
	env     map[string]*binding
	scope   *scope
	nextID  int
	checked map[string]int // key id -> first position where GET key is compared with a token
	tokened map[check]int  // (key, token) -> first position of that comparison
	exists  map[string]int // key id -> first EXISTS of it
	calls   []cmdCall
	// tooLarge is set when the walk stopped at maxDepth: what was read
	// is not the whole script.
	tooLarge bool
}

func parse(src string) *parser {
	p := &parser{lx: lexer{src: src}, env: map[string]*binding{}, checked: map[string]int{}, tokened: map[check]int{}, exists: map[string]int{}}
	p.scope = &scope{id: 1}
	p.nextID = 2
	p.advance()
	for {
		p.block()
		if p.tok.kind == tEOF {
			return p
		}
		p.advance() // a stray end/else/elseif/until
	}
}

func (p *parser) advance() { p.tok = p.lx.next() }

// stop ends the walk: every loop ends at EOF.
func (p *parser) stop() {
	p.lx.i = len(p.lx.src)
	p.tok = token{pos: len(p.lx.src)}
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.tooLarge = true
		p.stop()
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// accept consumes the operator or keyword s if it is the current token.
func (p *parser) accept(s string) bool {
	if p.tok.is(s) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) fresh() value {
	p.nextID++
	return value{id: "#" + strconv.Itoa(p.nextID)}
}

// ---- scopes and bindings

func (p *parser) open() {
	p.nextID++
	p.scope = &scope{id: p.nextID, depth: p.scope.depth + 1, parent: p.scope}
}

// close ends the innermost scope. Its locals go out of sight. A branch
// (conditional) puts back the values outer variables had before it and
// returns those variables; a plain block keeps the new values.
func (p *parser) close(conditional bool) []*binding {
	s := p.scope
	for i := len(s.declared) - 1; i >= 0; i-- {
		if d := s.declared[i]; d.prev == nil {
			delete(p.env, d.name)
		} else {
			p.env[d.name] = d.prev
		}
	}
	p.scope = s.parent
	var changed []*binding
	if conditional {
		for i := len(s.assigned) - 1; i >= 0; i-- {
			a := s.assigned[i]
			a.b.val = a.old
			changed = append(changed, a.b)
		}
		return changed
	}
	for _, a := range s.assigned {
		if a.b.depth < p.scope.depth && a.b.mark != p.scope.id {
			p.scope.assigned = append(p.scope.assigned, a)
			a.b.mark = p.scope.id
		}
	}
	return nil
}

// forget makes the variables a branch assigned unknown after it.
func (p *parser) forget(bs []*binding) {
	for _, b := range bs {
		p.set(b, p.fresh())
	}
}

func (p *parser) declare(name string, v value) {
	p.scope.declared = append(p.scope.declared, shadow{name, p.env[name]})
	p.env[name] = &binding{val: v, depth: p.scope.depth}
}

func (p *parser) assign(name string, v value) {
	b := p.env[name]
	if b == nil { // a global
		b = &binding{}
		p.env[name] = b
	}
	p.set(b, v)
}

func (p *parser) set(b *binding, v value) {
	if b.depth < p.scope.depth && b.mark != p.scope.id {
		p.scope.assigned = append(p.scope.assigned, saved{b, b.val})
		b.mark = p.scope.id
	}
	b.val = v
}

func (p *parser) lookup(name string) value {
	if b := p.env[name]; b != nil {
		return b.val
	}
	switch name {
	case "KEYS":
		return value{id: "KEYS", table: fromKey}
	case "ARGV":
		return value{id: "ARGV", table: fromArg}
	}
	return value{id: "g:" + name} // an unassigned global: the same every time it is read
}

// ---- statements

// blockEnd reports whether the current token ends a block.
func (p *parser) blockEnd() bool {
	t := p.tok
	return t.kind == tEOF || t.kind == tName && (t.text == "end" || t.text == "else" || t.text == "elseif" || t.text == "until")
}

// block parses statements up to the end of a block, without a scope of its
// own (the caller opens one).
func (p *parser) block() {
	if !p.enter() {
		return
	}
	defer p.leave()
	for !p.blockEnd() {
		at := p.tok.pos
		p.statement()
		if p.tok.pos == at && p.tok.kind != tEOF {
			p.advance() // not a statement: skip it
		}
	}
}

// scoped parses a block in a scope of its own.
func (p *parser) scoped(conditional bool) []*binding {
	p.open()
	p.block()
	return p.close(conditional)
}

func (p *parser) statement() {
	t := p.tok
	if t.kind != tName && !t.is(";") && !t.is("::") && !t.is("(") {
		return
	}
	switch t.text {
	case ";":
		p.advance()
	case "::": // ::label::
		p.advance()
		p.advance()
		p.accept("::")
	case "if":
		var changed []*binding
		p.advance()
		p.expr()
		p.accept("then")
		changed = append(changed, p.scoped(true)...)
		for p.tok.is("elseif") {
			p.advance()
			p.expr()
			p.accept("then")
			changed = append(changed, p.scoped(true)...)
		}
		if p.accept("else") {
			changed = append(changed, p.scoped(true)...)
		}
		p.accept("end")
		p.forget(changed)
	case "while":
		p.advance()
		p.expr()
		p.accept("do")
		changed := p.scoped(true)
		p.accept("end")
		p.forget(changed)
	case "do":
		p.advance()
		p.scoped(false)
		p.accept("end")
	case "for":
		p.forStat()
	case "repeat": // the body runs at least once; until sees its locals
		p.advance()
		p.open()
		p.block()
		p.accept("until")
		p.expr()
		p.close(false)
	case "function":
		p.advance()
		name, plain := p.name(), true
		for p.tok.is(".") || p.tok.is(":") {
			p.advance()
			p.name()
			plain = false
		}
		p.body()
		if plain && name != "" {
			p.assign(name, p.fresh())
		}
	case "local":
		p.advance()
		if p.accept("function") {
			name := p.name()
			p.declare(name, p.fresh())
			p.body()
			return
		}
		p.localStat()
	case "return":
		p.advance()
		if !p.blockEnd() && !p.tok.is(";") {
			p.exprList()
		}
	case "break":
		p.advance()
	case "goto":
		p.advance()
		p.name()
	default:
		p.exprStat()
	}
}

// name consumes a name and returns it ("" when the token is not one).
func (p *parser) name() string {
	if p.tok.kind == tName && !keywords[p.tok.text] {
		n := p.tok.text
		p.advance()
		return n
	}
	return ""
}

func (p *parser) localStat() {
	var names []string
	for {
		if n := p.name(); n != "" {
			names = append(names, n)
		}
		if p.accept("<") { // Lua 5.4 attribute: <const>, <close>
			p.name()
			p.accept(">")
		}
		if !p.accept(",") {
			break
		}
	}
	var vals []value
	if p.accept("=") {
		vals = p.exprList()
	}
	// declared after the values are read: in local x = x the right x is the outer one
	for i, n := range names {
		v := p.fresh()
		if i < len(vals) {
			v = vals[i]
		}
		p.declare(n, v)
	}
}

func (p *parser) forStat() {
	p.advance()
	first := p.name()
	names := []string{first}
	var iter value
	if p.accept("=") { // for i = a, b[, c]
		p.exprList()
	} else {
		for p.accept(",") {
			names = append(names, p.name())
		}
		p.accept("in")
		if vs := p.exprList(); len(vs) > 0 {
			iter = vs[0]
		}
	}
	p.accept("do")
	p.open()
	for i, n := range names {
		v := p.fresh()
		if i == 1 && iter.iter != fromNone { // for _, k in ipairs(KEYS): k is a key
			v.from = iter.iter
			v.id = "[" + v.id + "]"
			v.member = iter.iter == fromData
		}
		p.declare(n, v)
	}
	p.block()
	changed := p.close(true)
	p.accept("end")
	p.forget(changed)
}

// body parses a function's parameters and block. What it assigns to outer
// variables happens whenever it is called: those become unknown after it.
func (p *parser) body() {
	p.open()
	if p.accept("(") {
		for !p.tok.is(")") && p.tok.kind != tEOF {
			if n := p.name(); n != "" {
				p.declare(n, p.fresh())
			} else if !p.accept(",") && !p.accept("...") {
				break
			}
		}
		p.accept(")")
	}
	p.block()
	changed := p.close(true)
	p.accept("end")
	p.forget(changed)
}

// exprStat is a call or an assignment: a, b.c = x, y.
func (p *parser) exprStat() {
	_, name, ok := p.suffixed()
	if !ok {
		return
	}
	if !p.tok.is("=") && !p.tok.is(",") {
		return // a call
	}
	targets := []string{name}
	for p.accept(",") {
		_, n, _ := p.suffixed()
		targets = append(targets, n)
	}
	if !p.accept("=") {
		return
	}
	vals := p.exprList()
	for i, n := range targets {
		if n == "" {
			continue // a field or an index: not followed
		}
		v := p.fresh()
		if i < len(vals) {
			v = vals[i]
		}
		p.assign(n, v)
	}
}

// ---- expressions

func (p *parser) exprList() []value {
	vals := []value{p.expr()}
	for p.accept(",") {
		vals = append(vals, p.expr())
	}
	return vals
}

func (p *parser) expr() value { return p.subexpr(0) }

// Binary operator priorities (left, right), from Lua 5.4's lparser.c.
var binPrio = map[string][2]int{
	"or": {1, 1}, "and": {2, 2},
	"<": {3, 3}, ">": {3, 3}, "<=": {3, 3}, ">=": {3, 3}, "~=": {3, 3}, "==": {3, 3},
	"|": {4, 4}, "~": {5, 5}, "&": {6, 6}, "<<": {7, 7}, ">>": {7, 7},
	"..": {9, 8}, "+": {10, 10}, "-": {10, 10},
	"*": {11, 11}, "/": {11, 11}, "//": {11, 11}, "%": {11, 11},
	"^": {14, 13},
}

const unaryPrio = 12

func (p *parser) binop() (string, [2]int, bool) {
	if p.tok.kind != tOp && p.tok.kind != tName {
		return "", [2]int{}, false
	}
	pr, ok := binPrio[p.tok.text]
	return p.tok.text, pr, ok
}

func (p *parser) subexpr(limit int) value {
	if !p.enter() {
		return value{}
	}
	defer p.leave()
	var v value
	if t := p.tok; t.is("not") || t.is("-") || t.is("#") || t.is("~") {
		p.advance()
		p.subexpr(unaryPrio)
		v = p.fresh()
	} else {
		v = p.simple()
	}
	for {
		op, pr, ok := p.binop()
		if !ok || pr[0] <= limit {
			return v
		}
		at := p.tok.pos
		p.advance()
		w := p.subexpr(pr[1])
		v = p.binary(op, v, w, at)
	}
}

func (p *parser) binary(op string, a, b value, at int) value {
	switch op {
	case "==", "~=":
		p.compare(a, b, at)
		p.compare(b, a, at)
	case "..":
		if a.keyLike() || b.keyLike() {
			v := value{from: fromData, id: "(" + a.id + ".." + b.id + ")"}
			if len(v.id) > maxID {
				v.id = p.fresh().id
			}
			return v
		}
	}
	return p.fresh()
}

// compare records GET key == token, where the token is an ARGV value (the
// caller's) or the id of an entry the script iterates over, read from the
// server (asynq deletes each listed task's uniqueness lock only if it
// still holds that task's id). A value copied from another key or
// computed is no owner's token: that is a data compare. Whether the key is
// a lock's is for the lock evidence to decide, not the text.
func (p *parser) compare(got, token value, at int) {
	if got.get != "" && token.absent {
		// GET key == false: whether the key exists, as EXISTS asks.
		if _, ok := p.exists[got.get]; !ok {
			p.exists[got.get] = at
		}
		return
	}
	if got.get == "" || (token.from != fromArg && !token.member) {
		return
	}
	if _, ok := p.checked[got.get]; !ok {
		p.checked[got.get] = at
	}
	if token.from != fromArg {
		return // SET key token PX re-sets the caller's token only
	}
	c := check{got.get, token.id}
	if _, ok := p.tokened[c]; !ok {
		p.tokened[c] = at
	}
}

func (p *parser) simple() value {
	t := p.tok
	switch {
	case t.kind == tNumber:
		p.advance()
		return value{id: "n:" + t.text, lit: t.text, constant: true}
	case t.kind == tString:
		p.advance()
		s := strings.ToLower(t.text)
		return value{id: "s:" + s, str: s, isStr: true, lit: t.text, constant: true}
	case t.is("nil"), t.is("false"):
		p.advance()
		v := p.fresh()
		v.absent = true
		return v
	case t.is("true"), t.is("..."):
		p.advance()
		return p.fresh()
	case t.is("function"):
		p.advance()
		p.body()
		return p.fresh()
	case t.is("{"):
		p.table()
		return p.fresh()
	}
	v, _, _ := p.suffixed()
	return v
}

func (p *parser) table() {
	p.advance() // {
	for !p.tok.is("}") && p.tok.kind != tEOF {
		if p.accept("[") {
			p.expr()
			p.accept("]")
		} else {
			p.expr()
		}
		if p.accept("=") {
			p.expr()
		}
		if !p.accept(",") && !p.accept(";") {
			break
		}
	}
	p.accept("}")
}

// suffixed parses name or (expr) followed by .field, [index], :method(args)
// and (args). It returns the value, the name when the expression is a plain
// name (an assignable local), and false when no expression starts here.
func (p *parser) suffixed() (value, string, bool) {
	var v value
	var plain string
	switch t := p.tok; {
	case t.kind == tName && !keywords[t.text]:
		p.advance()
		plain = t.text
		v = p.lookup(plain)
	case t.is("("):
		p.advance()
		v = p.expr()
		p.accept(")")
	default:
		return p.fresh(), "", false
	}
	callee := plain // a global function called by name: tostring, ipairs
	redisCall := false
	for first := true; ; first = false {
		switch t := p.tok; {
		case t.is("."):
			p.advance()
			field := p.name()
			redisCall = first && (plain == "redis" || plain == "server") && p.env[plain] == nil && (field == "call" || field == "pcall")
			v, plain, callee = p.fresh(), "", ""
		case t.is("["):
			p.advance()
			idx := p.expr()
			p.accept("]")
			v, plain, callee = p.index(v, idx), "", ""
			redisCall = false
		case t.is(":"):
			p.advance()
			p.name()
			v, plain, callee = p.call("", p.args()), "", ""
			redisCall = false
		case t.is("(") || t.is("{") || t.kind == tString:
			at := t.pos
			args := p.args()
			if redisCall {
				v = p.redisCall(args, at)
			} else {
				v = p.call(callee, args)
			}
			plain, callee, redisCall = "", "", false
		default:
			return v, plain, true
		}
	}
}

// args parses a call's arguments: (a, b), "text" or {table}.
func (p *parser) args() []value {
	switch t := p.tok; {
	case t.kind == tString:
		return []value{p.simple()}
	case t.is("{"):
		p.table()
		return []value{p.fresh()}
	}
	p.advance() // (
	var vals []value
	if !p.tok.is(")") {
		vals = p.exprList()
	}
	p.accept(")")
	return vals
}

func (p *parser) index(t, idx value) value {
	if t.table == fromNone {
		return p.fresh()
	}
	prefix := "K["
	if t.table == fromArg {
		prefix = "A["
	}
	return value{from: t.table, id: prefix + idx.id + "]"}
}

// call is the value of a function call other than redis.call.
func (p *parser) call(callee string, args []value) value {
	switch callee {
	case "tostring":
		if len(args) == 1 {
			return args[0]
		}
	case "ipairs", "pairs":
		if len(args) == 1 && args[0].table != fromNone {
			v := p.fresh()
			v.iter = args[0].table
			return v
		}
		if len(args) == 1 && args[0].from == fromData {
			// A list read from the server (ZRANGE, SMEMBERS): its
			// elements are data too (for _, id in ipairs(ids)).
			v := p.fresh()
			v.iter = fromData
			return v
		}
	}
	v := p.fresh()
	for _, a := range args {
		if a.keyLike() { // string.format("lock:%s", ARGV[1]), cjson.decode(...)
			v.from = fromData
		}
	}
	if callee == "tonumber" && len(args) > 0 {
		v.number = args[0].id
	}
	return v
}

// lockCmds are the commands that can make a lock step.
var lockCmds = map[string]bool{
	"del": true, "unlink": true, "set": true, "setnx": true, "setex": true, "psetex": true, "incr": true, "incrby": true,
	"expire": true, "pexpire": true, "expireat": true, "pexpireat": true,
}

// redisCall records redis.call(cmd, args...) and returns its reply's value.
func (p *parser) redisCall(args []value, at int) value {
	v := p.fresh()
	if len(args) == 0 || !args[0].isStr {
		return v
	}
	cmd, rest := args[0].str, args[1:]
	if lockCmds[cmd] {
		p.calls = append(p.calls, cmdCall{pos: at, cmd: cmd, args: rest})
	}
	for _, a := range rest {
		if a.keyLike() {
			v.from = fromData
		}
	}
	if cmd == "get" && len(rest) == 1 && rest[0].keyLike() {
		v.get = rest[0].id
	}
	if cmd == "exists" && len(rest) == 1 && rest[0].keyLike() {
		if _, ok := p.exists[rest[0].id]; !ok {
			p.exists[rest[0].id] = at
		}
	}
	return v
}
