// Package resolve is the one call-resolution layer every lockaudit analyzer
// shares. Its Analyzer runs once per package and turns each call that sends
// a Valkey/Redis command — over go-redis (v6–v9), valkey-go, rueidis, redigo,
// valkey-glide, radix, and the lock libraries — into an Op: the logical
// command with its key, value, options and context (transaction, script,
// enclosing function). Rules then work on Ops, never on client APIs.
package resolve

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Kind says what an Op is.
type Kind int

const (
	Command   Kind = iota + 1 // a server command sent by the code (SET, DEL, EVAL, ...)
	ScriptDef                 // a Lua script object constructed (NewScript, NewLuaScript, ...)
	Library                   // a call into a lock library (redsync, redislock, valkeylock, rueidislock)
)

// TTL says how a SET sets the key's expiry.
type TTL int

const (
	NoTTL      TTL = iota // no EX/PX/EXAT/PXAT/KEEPTTL: the SET drops any TTL
	Expire                // EX, PX, EXAT or PXAT
	KeepTTL               // KEEPTTL
	UnknownTTL            // cannot be decided statically (a non-constant duration that may be 0, spread args)
)

// Op is one logical command (or script definition, or library call).
type Op struct {
	Kind   Kind
	Client string // "go-redis/v9", "go-redis/v8", "go-redis/v7", "go-redis", "valkey-go", "rueidis", "redigo", "glide", "radix/v3", "radix/v4", "redsync", "redislock", "valkeylock", "rueidislock"

	// Call is the expression that sends the command: the go-redis method
	// call, redigo Do/Send, valkey-go Do/DoMulti, glide method, radix
	// client Do, the script constructor (ScriptDef), or the library call.
	Call *ast.CallExpr
	// Expr is the expression that builds the command when it is not Call
	// itself: the valkey-go/rueidis builder chain (after following a
	// variable to its single assignment), the radix action, the go-redis
	// NewCmd passed to Process, the glide batch call. Nil otherwise.
	Expr ast.Expr
	// Pos is where a finding about this Op is reported (the rule contract):
	// the start of the statement's outermost call for builder chains, the
	// constructor for scripts, otherwise Call.Pos().
	Pos token.Pos
	// Stack is the path from the file down to Call (Call last); rules use it
	// to see how the reply is used and which function holds the call.
	Stack []ast.Node
	// Func is the outermost enclosing function declaration (nil at package
	// level); Lit the innermost function literal, if any (a TxPipelined
	// callback, a goroutine).
	Func *ast.FuncDecl
	Lit  *ast.FuncLit

	// Command ops.
	Name  string     // upper case: SET, SETNX, DEL, UNLINK, GETDEL, DELIFEQ, DELEX, EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, INCR, INCRBY, WAIT, WAITAOF, EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, MULTI, EXEC, ...
	Keys  []ast.Expr // key arguments, in order (nil entries never appear)
	Value ast.Expr   // SET: the value written (the token of an acquire)
	Match ast.Expr   // SET IFEQ comparison value; DELIFEQ value; DELEX condition value
	Args  []ast.Expr // every argument after the command name, as written (raw forms), for rules that need more

	// SET options (Name == "SET"); DELEX condition (Name == "DELEX").
	// IFEQ is Cond == "IFEQ" on a SET. TTL is meaningful for SET only (a
	// SETNX has NoTTL by definition); TTLExpr is also the amount of the
	// EXPIRE family (EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, EXPIRE* helpers)
	// and of INCRBY.
	NX, XX, IFEQ, GET bool
	TTL               TTL
	TTLExpr           ast.Expr // the duration/amount, when visible
	Cond              string   // SET and DELEX: "IFEQ", "IFNE", "IFDEQ", "IFDNE", or "" for none

	// Complete is false when the arguments could not all be seen (a spread
	// args..., a redigo redis.Args{}, a non-constant option): rules must not
	// report what they could not see, and LA104/LA106 treat options as unknown.
	Complete bool

	// Script is the Lua script for EVAL-family commands, script runs and
	// ScriptDef ops; nil when the script text is not visible.
	Script *Script

	// Tx is the MULTI/EXEC (or pipeline) group this Op is queued in; nil
	// when it is sent on its own.
	Tx *Tx

	// Library ops: Lib is the library ("redsync", ...), Method the method
	// or function called ("Unlock", "Obtain", "WithContext", ...), Step what
	// it does ("acquire", "extend", "release", "ttl", "locker").
	Lib, Method, Step string

	// conn is the object of the connection, client, pipeline or batch the
	// command is sent on (nil when it is not a variable); scope is the
	// innermost function (FuncDecl or FuncLit) holding Call. Both group
	// MULTI...EXEC sequences and pipelines.
	conn  types.Object
	scope ast.Node
	// boundary marks a MULTI or EXEC op that only delimits a transaction;
	// it is dropped from the result once the Tx is built.
	boundary bool
}

// Key returns the first key argument, or nil.
func (o *Op) Key() ast.Expr {
	if len(o.Keys) == 0 {
		return nil
	}
	return o.Keys[0]
}

// IsAcquire reports whether the Op is a lock acquire: SET NX or SETNX.
func (o *Op) IsAcquire() bool {
	return o.Kind == Command && (o.Name == "SETNX" || (o.Name == "SET" && o.NX))
}

// Script is a Lua script visible in the code.
type Script struct {
	Text string        // the Lua source (constant)
	Def  *ast.CallExpr // the constructor (NewScript, ...) or the EVAL call holding the text
	Pos  token.Pos     // where LA101 reports it
	// Inline is true when the text is sent by an EVAL-family command (EVAL,
	// EVAL_RO, B().Eval().Script(...), a raw "EVAL") rather than defined as
	// a script object; the Op holding it is then the definition.
	Inline bool

	numKeys int    // redigo/radix v3 key count (-1: unknown or passed by the caller)
	evalCmd string // the command a run sends: EVALSHA, EVAL (NoSha constructors), EVALSHA_RO ...
}

// TxKind says how a group of commands is sent.
type TxKind int

const (
	Multi    TxKind = iota + 1 // atomic: MULTI/EXEC (TxPipelined, TxPipeline().Exec, DoMulti(MULTI..EXEC), redigo Send MULTI..Do EXEC, glide atomic batch)
	Pipeline                   // one round trip, not atomic
)

// Tx is one transaction or pipeline.
type Tx struct {
	Kind TxKind
	Pos  token.Pos // the call that sends the group (Exec, TxPipelined, DoMulti, Do("EXEC"))
	Ops  []*Op
	// MaybeMulti is set on a Pipeline whose atomicity is chosen at run time
	// (a glide batch built with a non-constant isAtomic): rules that need
	// "not in one MULTI" for certain must treat it as possibly atomic.
	MaybeMulti bool
}

// Result is the resolve Analyzer's result for one package.
type Result struct {
	Ops []*Op // in source order
}
