// Package resolve is the one call-resolution layer every lockaudit analyzer
// shares. Its Analyzer runs once per package and turns each call that sends
// a Valkey/Redis command — over go-redis (v6–v9), valkey-go, rueidis, redigo,
// valkey-glide, radix, and the lock libraries — into an Op: the logical
// command with its key, value, options and context (transaction, script,
// enclosing function). Rules then work on Ops, never on client APIs.
//
// # How calls are matched
//
// A call is resolved with typeutil.Callee, normalised with Origin (glide's
// generic BaseBatch[T]) and looked up by (package path without any
// .../vendor/ prefix, receiver type name, method name) in the data tables of
// knowledge.go. Any receiver of the package matches (go-redis's embedded
// cmdable, concrete clients, Cmdable/StringCmdable/UniversalClient/Pipeliner
// interfaces; glide's *baseClient and interfaces package); the receiver is
// used only to tell apart names that collide (Script.Run vs cmdable.Eval,
// Tx.Watch vs the client's Watch(fn), SentinelClient.Set). Type aliases are
// followed (valkey-go's Builder/Completed live in internal/cmds). A method
// of a project's interface that mirrors a client's command method (its first
// result a type of the client package, its name and signature a method of
// one of that package's interfaces: SetNX(...) *redis.BoolCmd) is that
// method (mirror.go). A
// package's calls to itself are its implementation and are not resolved;
// packages that do not depend on a known client cost nothing.
//
// # What an Op states
//
// Every field states only what is certain from the source:
//
//   - Complete is false when an argument that matters could not be seen (a
//     spread args..., redigo redis.Args{}.AddFlat(x), a non-literal
//     go-redis SetArgs, a non-constant SET option, a builder variable
//     assigned several commands, a wrong argument count in code that does
//     not compile). Rules must not report option-dependent facts of an
//     incomplete Op; facts that are visible stay set (NX seen literally is
//     NX).
//   - TTL (SET only): EX/PX/EXAT/PXAT seen is Expire; KEEPTTL is KeepTTL; no
//     expiry option is NoTTL when Complete, UnknownTTL otherwise. For helpers
//     that take a duration (go-redis Set/SetNX/SetXX/SetIFEQ..., compat
//     adapters): a constant (or a variable assigned once from one, or a
//     zero-value declaration) decides: 0 or negative is NoTTL, -1 is KeepTTL
//     where the client has the sentinel (go-redis v8+, compat adapters), a
//     positive value Expire. Any other expression (a parameter, a field, a
//     config value) is taken as Expire: it is almost always a configured
//     lease, and treating it as unknown would hide nothing a rule could
//     prove. TTLExpr is set only when there is a TTL (and for the EXPIRE
//     family and INCRBY, their amount).
//   - go-redis v6-v8 and the compat adapters send the legacy SETNX for
//     SetNX(..., 0): the Op is Name "SETNX".
//   - Cond is the SET or DELEX condition (IFEQ, IFNE, IFDEQ, IFDNE); a SET
//     IFEQ has Cond == "IFEQ". Match is the compared value (or digest).
//   - Script is set when the Lua text is a constant visible in the package
//     (a literal, const, package-level or local variable assigned once,
//     concatenations, a //go:embed file); Script.Inline marks text sent by
//     an EVAL-family command itself, or by an EVALSHA of the SHA1 of a
//     visible text computed in Go (sha.go). Runs of a script object (Run, Exec, Do
//     ...) carry the definition's Script; its Pos is the constructor's.
//   - Tx groups Ops that travel together: Multi for TxPipelined callbacks,
//     TxPipeline() variables, DoMulti between MULTI and EXEC, MULTI ... EXEC
//     sequences on one connection variable in one function (redigo, radix
//     WithConn, a dedicated valkey-go client), glide batches built with
//     isAtomic true; Pipeline for Pipelined/Pipeline(), other DoMulti
//     commands, radix pipelines, glide batches with isAtomic false
//     (MaybeMulti when isAtomic is not a constant). The MULTI and EXEC that
//     delimit a Multi are not Ops; an unclosed MULTI stays one.
//   - Pos follows the rule contract: the sending call; for a builder chain
//     the start of the statement's outermost call; for a script object the
//     constructor. A builder chain or radix action that no sender in the
//     package consumes is still an Op, at the place it is built.
//   - Library Ops (redsync, redislock, valkeylock, rueidislock, go-zero's
//     RedisLock) have Method, Step (acquire, extend, release, ttl, locker), the lock name in
//     Keys when the call takes one, and the TTL in TTLExpr. Value is the
//     token a library call's options fix (redislock's Options.Token,
//     redsync's WithValue or the value a WithGenValueFunc function returns).
//   - Script runs that acquire, or set a key guarded by EXISTS
//     (lua.Detail.Token), have the ARGV the script writes as their Value,
//     when the run's arguments are visible.
//
// # Wrappers and facts
//
// A function, method or interface method of the project that sends one
// command, runs or builds a script, or calls a lock library for its caller
// — directly or through another such function — is a wrapper (wrapper.go):
// the layer summarises which parameter is the key, the token, the TTL, the
// keys and ARGV, the script text or object, and which result carries the
// reply (Summary), and exports the summary as a fact. A call of a wrapper,
// in the same package or in one that imports it, is an Op with Via set:
// what the wrapper sends, with the caller's arguments. An interface method
// is a wrapper when every named type of its package that implements the
// interface has the method as a wrapper, all alike. A function that sends
// more than one command is a routine, not a wrapper; so is one that calls
// itself. Packages that do not reach a known client export nothing (the
// Reaches package fact marks those that do).
//
// # What the layer cannot decide
//
// Values that only exist at run time (a command name or option built by a
// function, a slice grown in a loop, a script text from configuration),
// script objects and pipelines passed to functions that are no wrappers (a
// pipeline handed to a helper loses its Tx), routines that send several
// commands for their caller, clients reached through reflection, and
// go-redis hooks or AutoPipeliner batching.
package resolve

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"golang.org/x/tools/go/types/typeutil"
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
	Kind Kind
	// Client is the client or lock library the call goes to, with the
	// traits rules switch on (client.go).
	Client *Client

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
	Args  []ast.Expr // the arguments as written: after ctx for typed helpers, after the command name for raw forms and builders (the steps' arguments), keysAndArgs for script runs

	// SET options (Name == "SET"); DELEX condition (Name == "DELEX").
	// A SET IFEQ has Cond == "IFEQ". TTL is meaningful for SET only (a
	// SETNX has NoTTL by definition); TTLExpr is also the amount of the
	// EXPIRE family (EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, EXPIRE* helpers)
	// and of INCRBY.
	NX, XX, GET bool
	TTL         TTL
	TTLExpr     ast.Expr // the duration/amount, when visible
	// TTLUnit is set when TTLExpr is a raw argument (a command name and
	// its arguments: Do, redigo, a builder's steps): the option or command
	// that reads it, "EX", "PX", "EXAT", "PXAT", "SETEX", "PSETEX",
	// "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"; "" for typed helpers,
	// whose client converts a duration itself.
	TTLUnit string
	Cond    string // SET and DELEX: "IFEQ", "IFNE", "IFDEQ", "IFDNE", or "" for none
	// Compressed is set when the client sending the command is known to
	// compress values (valkey-glide configured WithCompressionConfiguration):
	// a SET stores the value compressed, while IFEQ compares uncompressed.
	Compressed bool

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

	// Library ops: Method is the method or function called ("Unlock",
	// "Obtain", "WithContext", ...), Step what it does ("acquire",
	// "extend", "release", "ttl", "locker"); Client.Lib describes the
	// library.
	Method, Step string

	// Via is set when the call is to a wrapper: a function or method of
	// the project (or an interface method whose implementations all
	// forward) that sends the command or takes the lock step for its
	// caller, directly or through another wrapper. The Op then says what
	// the wrapper sends, with the caller's arguments in place of the
	// wrapper's parameters: Keys, Value, TTLExpr, Args and the script are
	// the caller's expressions where the wrapper passes a parameter
	// through, and missing (Complete false) where it does not. Client is
	// the wrapped client's traits with API APIWrapper.
	Via *Via
	// InWrapper is set on the Op a wrapper sends for its callers (the one
	// Op of a summarised function's body): the wrapper, and which parts of
	// this Op its callers pass. A finding about such a part belongs at the
	// callers, which see their own arguments (ForCallers).
	InWrapper *InWrapper

	// conn is the object of the connection, client, pipeline or batch the
	// command is sent on (nil when it is not a variable); scope is the
	// innermost function (FuncDecl or FuncLit) holding Call. Both group
	// MULTI...EXEC sequences and pipelines.
	conn  types.Object
	scope ast.Node
	// boundary marks a MULTI or EXEC op that only delimits a transaction;
	// it is dropped from the result once the Tx is built.
	boundary bool

	// What a wrapper summary needs to map back to parameters (wrapper.go):
	// keysArg is the slice expression the keys were read from (EVAL, script
	// runs); argv the ARGV values as written (nil with argvFrom set: a
	// slice or args... whose elements are not visible); text the
	// expression holding a script's text (EVAL, a script constructor);
	// durTTL marks a TTL taken from a duration expression that is not a
	// constant (go-redis shaped helpers).
	keysArg ast.Expr
	// numKeys and keysArgv: an EVAL whose key count is not a constant
	// and whose keys and ARGV are one spread list (a wrapper's
	// Eval(src, n, keysAndArgs)), for the wrapper's callers to split.
	numKeys  ast.Expr
	keysArgv ast.Expr
	argv     []ast.Expr
	argvFrom ast.Expr
	text     ast.Expr
	durTTL   bool
}

// Via describes the wrapper an Op was resolved through.
type Via struct {
	// Func is the function, method or interface method called.
	Func *types.Func
	// At is where the wrapper (or the innermost wrapper it calls) sends the
	// command: "redis.go:1492".
	At string
	// Results says what each result of the wrapper carries of the
	// command's reply (reply.Of reads it).
	Results []Carry
	// Dropped: the wrapper reads nothing of the reply but its error
	// (return cmd.Err()): whatever the caller does, the value is lost.
	Dropped bool
	// Passed says which of the Op's parts the caller passed (the rest the
	// wrapper fixes: a finding about those is the wrapper's, reported
	// there, not at each of its callers).
	Passed Passed
	// Checked: the wrapper sends this DEL only after a GET of the key
	// whose reply it compares with Match, in another round trip
	// (OpSummary.Checked).
	Checked bool
	// ExpireAt: the wrapper completes this TTL-less acquire with an
	// EXPIRE of the key in another round trip, sent there
	// (OpSummary.ExpireAt).
	ExpireAt string
}

// Passed is a set of the parts of a wrapper Op that come from the
// caller's arguments.
type Passed uint8

const (
	PassedKey    Passed = 1 << iota // the keys
	PassedValue                     // the value (token) or its comparison value
	PassedTTL                       // the TTL or amount
	PassedScript                    // the script (its text or object)
	PassedArgv                      // the script's ARGV
)

// InWrapper describes the wrapper an Op is sent by.
type InWrapper struct {
	Func    *types.Func // the wrapper
	Summary *Summary    // its Summary (the parameter of each part)
	Passed  Passed      // the parts of the Op its callers pass
}

// ForCallers reports whether the Op is sent by a wrapper whose callers pass
// one of the parts p (a generic SETNX wrapper's key and value): a finding
// about them is for the callers to have, with their arguments.
func (o *Op) ForCallers(p Passed) bool { return o.InWrapper != nil && o.InWrapper.Passed&p != 0 }

// Passes reports whether a finding about parts p of the Op belongs where
// the Op is: always for a direct call; for a wrapper call, when the caller
// passed one of those parts — otherwise the wrapper fixes them, and the
// finding is the wrapper's, reported there once rather than at each
// caller.
func (o *Op) Passes(p Passed) bool { return o.Via == nil || o.Via.Passed&p != 0 }

// Carry says what a wrapper's result carries of the reply of the command
// it sends.
type Carry uint8

const (
	CarryNone  Carry = iota // nothing: a value of its own, or the reply was dropped inside
	CarryError              // the reply's error, and only that
	CarryLost               // an error the wrapper returns when the reply says the lock was lost (its outcome, as an error)
	CarryValue              // the reply's value, or a value computed from it
)

// Key returns the first key argument, or nil.
func (o *Op) Key() ast.Expr {
	if len(o.Keys) == 0 {
		return nil
	}
	return o.Keys[0]
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
	// Steps is what the script does as a lock step (lua.Classify), worked
	// out once per script by the resolve layer; rules read it.
	Steps lua.Step
	// Detail says which KEYS and ARGV the lock steps use and where the
	// first step is in the text (lua.Analyze); Detail.Steps == Steps.
	Detail lua.Detail
	// Source names the file the text was read from, for a //go:embed file
	// or an embed.FS read: "lockscript.lua" (relative to the package);
	// empty for text written in Go.
	Source string
	// Foreign is true for the script of a wrapper in another package: the
	// text is not here (Text is empty), only its Steps and Detail.
	Foreign bool

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
	// Wrappers are the package's wrappers (functions, methods and
	// interface methods) with what they send: the parameter of the key,
	// the token, the TTL, the script; the Summary fact of each.
	Wrappers map[*types.Func]*Summary
}

// CallName names a library call as a reader knows it: for a method, its
// receiver type and name ("Mutex.Unlock", "Locker.WithContext") with pkg
// empty; for a package function, its package name and name
// (pkg "redislock", name "Obtain").
func CallName(info *types.Info, o *Op) (pkg, name string) {
	fn, _ := typeutil.Callee(info, o.Call).(*types.Func)
	if fn == nil {
		return o.Client.Name, o.Method
	}
	switch recv := RecvName(fn); recv {
	case "":
		return fn.Pkg().Name(), fn.Name()
	case "?":
		return "", fn.Name()
	default:
		return "", recv + "." + fn.Name()
	}
}
