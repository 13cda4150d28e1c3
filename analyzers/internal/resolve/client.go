package resolve

// Client is what lockaudit knows about one client or lock library, as
// traits. Rules switch on the traits, never on Name: a new client whose
// traits match an existing one's needs no change outside this package.
type Client struct {
	// Name is how messages and tests name it: "go-redis/v9", "valkey-go",
	// "redigo", "redsync", "go-zero" ...
	Name string
	// API is how its API spells commands; suggested fixes rewrite only the
	// APIs they know.
	API API
	// Replies says where a command's reply lands.
	Replies Replies
	// LostIsError: a step that finds the lock no longer held — a SET IFEQ
	// that does not match (go-redis's redis.Nil, valkey-go's valkey.Nil), a
	// library's extend or release (redsync's ErrTaken, redislock's
	// ErrLockNotHeld) — returns an error, so checking the error examines
	// the outcome. When false the outcome is a value (a nil reply, 0,
	// false) that must be read.
	LostIsError bool
	// Tx is how the client groups commands into MULTI/EXEC and pipelines.
	Tx TxStyle
	// Lib describes a lock library's steps; nil for clients.
	Lib *LockLibrary
	// DurationNanos: a time.Duration passed as a raw argument (Do's
	// arguments, a script's ARGV) goes out as its integer count of
	// nanoseconds (go-redis v9, and v8 from v8.11.5: the proto writer's
	// `case time.Duration: w.int(v.Nanoseconds())`; v6, v7 and earlier v8
	// refuse it with an error, redigo formats it as "10s", which the server
	// refuses; valkey-go and rueidis take strings).
	DurationNanos bool
}

// API says how a client's API spells commands.
type API int

const (
	// APIGoRedis: typed helpers returning reply objects (*Cmd with Err,
	// Val, Result), a raw Do(ctx, args...), script objects run with
	// Run(ctx, client, keys, args...). go-redis v6 to v9.
	APIGoRedis API = iota + 1
	// APIAdapter: go-redis's helper names over another client (valkey-go's
	// valkeycompat, rueidis's rueidiscompat); not every helper or option
	// exists, so fixes are not offered.
	APIAdapter
	// APIBuilder: command builders (c.B().Set().Key(k)...Build()) sent by
	// Do/DoMulti, replies as ValkeyResult. valkey-go, rueidis.
	APIBuilder
	// APIRaw: a command name and its arguments, Do/Send, replies as
	// (reply, error). redigo.
	APIRaw
	// APIGlide: typed methods returning (value, error), batches, scripts
	// invoked by the client. valkey-glide.
	APIGlide
	// APIAction: actions (Cmd, FlatCmd, script Cmd) carrying a reply
	// receiver, sent by a client's Do. radix v3, v4.
	APIAction
	// APIGoZero: typed helpers without a context and ...Ctx twins with
	// one, returning (value, error), expiries as whole seconds, scripts
	// run by the client (ScriptRun). go-zero's core/stores/redis.
	APIGoZero
	// APILibrary: a lock library; its calls are lock steps, not commands.
	APILibrary
	// APIWrapper: a function of the project (or an interface method) that
	// sends the command or takes the lock step for its caller (Op.Via).
	// The call is the project's own, so fixes do not rewrite it.
	APIWrapper
	// APIFunc: a function value shaped like redigo's Do, func(cmd string,
	// args ...interface{}) (interface{}, error), that the project passes
	// around (a field, a parameter) and calls with a constant command
	// name. What it calls is not known, so fixes do not rewrite it.
	APIFunc
)

// Replies says where a command's reply lands.
type Replies int

const (
	// InResult: in the sending call's results (a reply object, a
	// (value, error) pair); a queued command's also in its group's.
	InResult Replies = iota
	// InReceiver: in the receiver the action was built with (radix's
	// Cmd(&v, ...)); the sending Do returns only the error, and a
	// transaction's replies land in its EXEC action's receiver.
	InReceiver
)

// TxStyle is a set of the ways a client groups commands.
type TxStyle uint8

const (
	// TxCallback: a callback gets the pipeline (go-redis TxPipelined,
	// Pipelined; go-zero's Pipelined).
	TxCallback TxStyle = 1 << iota
	// TxObject: a pipeline or batch object collects commands and Exec
	// sends them (go-redis TxPipeline(), glide batches).
	TxObject
	// TxList: one call sends a list of commands (valkey-go DoMulti, radix
	// pipelines).
	TxList
	// TxSequence: MULTI, the commands and EXEC are sent one by one on a
	// connection the code holds (redigo, radix WithConn, a dedicated
	// valkey-go client, go-redis Conn); the layer groups them when they
	// are sent on one variable in one function.
	TxSequence
)

// LockLibrary describes a lock library's steps (Op.Step: acquire, extend,
// release, ttl, locker).
type LockLibrary struct {
	// Module names the library in reports: "redsync", "bsm/redislock".
	Module string
	// Lua maps each step that runs a Lua script to what runs ("Lua
	// release"); a step not listed is native. The one table of library
	// Lua: LA102 and the uses analyzer read it.
	Lua map[string]string
	// Summary says how the library uses Lua, in one sentence.
	Summary string
	// Lost is what tells that the lock was lost: the errors when
	// LostIsError ("ErrLockNotHeld"), else the reply ("false").
	Lost string
}
