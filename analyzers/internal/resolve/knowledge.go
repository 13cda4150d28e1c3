package resolve

// This file is the client knowledge, as data: for every client package, the
// functions and methods that send (or build, or group) commands, keyed by
// name. Everything else in the package is generic code that interprets these
// specs. To support a new helper, add a row here. The facts behind each row
// are the client's own API at the version its stub copies
// (analyzers/testdata/src at the real import path; TestRealClients holds
// most stubs against the real modules pinned in testdata/libscan/go.mod).
// A client with an API of its own is one file with its handler (gozero.go
// is one) and its rows in registerAll below: docs/development.md, "Adding
// a client".
//
// A spec key is looked up in this order:
//
//	"Recv.Name"   a method on the named receiver type (disambiguates collisions)
//	"Name"        a method on any receiver type in the package (concrete
//	              clients, the embedded cmdable, interfaces ...)
//	"func Name"   a package-level function

import (
	"go/ast"
	"go/types"
	"sync"
)

// handler says how a call's arguments become Ops.
type handler int

const (
	hSkip handler = iota // not a command (a name collision to ignore)

	// go-redis shaped helpers (go-redis v6-v9, valkeycompat, rueidiscompat).
	hSet       // key, value, expiration: SET with the spec's flags
	hSetArgs   // key, value, SetArgs{...}
	hSetMatch  // key, value, match, expiration: SET IF*
	hSetEx     // key, value, expiration: SETEX
	hDelExArgs // key, DelExArgs{...}
	hKeys      // keys ...string
	hKey       // key
	hKeyAmount // key, amount (EXPIRE family, INCRBY): TTLExpr = amount
	hNoKey     // no key (WAIT, WAITAOF)
	hEval      // script|sha, keys []string, args ...interface{}
	hDo        // args ...interface{}: args[0] is the command
	hProcess   // cmd Cmder, built by a New*Cmd(ctx, args...)
	hScriptNew // script constructor; spec.arg is the source's index
	hScriptRun // (*Script).Run/Eval...: c Scripter, keys []string, args...
	hScriptArg // a client's run of a script object: script, keys []string, args... (go-zero ScriptRun)
	hTxFunc    // TxPipelined/Pipelined(fn func(Pipeliner) error)
	hTxNew     // TxPipeline()/Pipeline(): returns a pipeline
	hTxExec    // Pipeliner.Exec: sends the pipeline

	// valkey-go and rueidis.
	hVkDo        // Do/DoCache/DoStream(ctx, cmd): one builder chain
	hVkDoMulti   // DoMulti/DoMultiStream(ctx, cmds...)
	hLuaExec     // (*Lua).Exec(ctx, c, keys, args []string)
	hLuaExecMult // (*Lua).ExecMulti(ctx, c, ...LuaExec)

	// redigo.
	hRgDo        // Conn.Do/Send/DoContext/DoWithTimeout(name, args...)
	hRgDoFunc    // package DoContext/DoWithTimeout(c, ctx|timeout, name, args...)
	hRgScriptRun // (*Script).Do/DoContext/Send/SendHash(c, keysAndArgs...)

	// valkey-glide.
	hGlSetOptions // SetWithOptions(key, value, options.SetOptions)
	hGlKeySlice   // keys []string (Del, Unlink)
	hGlCustom     // CustomCommand(args []string)
	hGlInvoke     // InvokeScript(script) / InvokeScriptWithOptions(script, ScriptOptions)
	hGlBatchNew   // pipeline.NewStandaloneBatch/NewClusterBatch(isAtomic)
	hGlExec       // (*Client).Exec(ctx, batch, raiseOnError)

	// radix.
	hRxDo     // Client.Do([ctx,] action)
	hRxAction // Cmd/FlatCmd/EvalScript.Cmd/Pipeline: an action, sent by a Do

	// Lock libraries.
	hLib
)

type spec struct {
	h    handler
	cmd  string // the command name (SET, DEL, EVALSHA ...)
	nx   bool
	xx   bool
	get  bool
	cond string // SET condition (IFEQ ...)
	// arg is the index (after a leading context.Context) of the argument
	// the handler reads first when it is not the obvious one: the script
	// source of a constructor, the key count of redigo/radix v3 scripts is
	// arg-1.
	arg  int
	tx   TxKind
	step string // library step: acquire, extend, release, ttl, locker
	// keyArg/ttlArg: library calls, 1-based index (after ctx) of the lock
	// name and of the TTL; 0 when the call has none.
	keyArg, ttlArg int
	// optArg: library calls, 1-based index (after ctx) of the options that
	// may set the token the lock writes (redislock's *Options with Token,
	// the first of redsync's variadic options); 0 when none.
	optArg int
	// noSha/ro: Lua constructors whose runs send EVAL (no SHA) or the
	// read-only variants.
	noSha, ro bool
}

// handle resolves one call of a client package (a resolver method).
type handle func(r *resolver, fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node)

// pkgInfo is what lockaudit knows about one client package.
type pkgInfo struct {
	client *Client // Op.Client
	handle handle  // resolves a call that has a spec
	specs  map[string]spec
	// builder marks a command-builder package (valkey-go's and rueidis's
	// internal/cmds): every method is a step of a chain, and cmdsOf is the
	// client package that sends the chains.
	builder bool
	cmdsOf  *pkgInfo
	// lib is the lock library a client package also holds (go-zero's
	// RedisLock): the client of its Library ops.
	lib *Client
	// dialect is what the client's own file knows about this package's
	// version (goRedisDialect, radixDialect): data in the table, read only
	// by that file's code, so a client's quirks need no field here.
	dialect any
}

func (p *pkgInfo) lookup(recv, name string) (spec, bool) {
	if recv != "" {
		if s, ok := p.specs[recv+"."+name]; ok {
			return s, true
		}
		s, ok := p.specs[name]
		return s, ok
	}
	s, ok := p.specs["func "+name]
	return s, ok
}

// goRedisSpecs are the go-redis helpers (and their compat-adapter twins).
// The same names exist in v6-v9; helpers a version lacks are simply never
// called.
func goRedisSpecs() map[string]spec {
	m := map[string]spec{
		"Set":         {h: hSet, cmd: "SET"},
		"SetNX":       {h: hSet, cmd: "SET", nx: true},
		"SetXX":       {h: hSet, cmd: "SET", xx: true},
		"SetEx":       {h: hSetEx, cmd: "SETEX"},
		"SetEX":       {h: hSetEx, cmd: "SETEX"},
		"SetArgs":     {h: hSetArgs, cmd: "SET"},
		"SetIFEQ":     {h: hSetMatch, cmd: "SET", cond: "IFEQ"},
		"SetIFEQGet":  {h: hSetMatch, cmd: "SET", cond: "IFEQ", get: true},
		"SetIFNE":     {h: hSetMatch, cmd: "SET", cond: "IFNE"},
		"SetIFNEGet":  {h: hSetMatch, cmd: "SET", cond: "IFNE", get: true},
		"SetIFDEQ":    {h: hSetMatch, cmd: "SET", cond: "IFDEQ"},
		"SetIFDEQGet": {h: hSetMatch, cmd: "SET", cond: "IFDEQ", get: true},
		"SetIFDNE":    {h: hSetMatch, cmd: "SET", cond: "IFDNE"},
		"SetIFDNEGet": {h: hSetMatch, cmd: "SET", cond: "IFDNE", get: true},
		"DelExArgs":   {h: hDelExArgs, cmd: "DELEX"},
		"Del":         {h: hKeys, cmd: "DEL"},
		"Unlink":      {h: hKeys, cmd: "UNLINK"},
		"Exists":      {h: hKeys, cmd: "EXISTS"},
		"Get":         {h: hKey, cmd: "GET"},
		"GetDel":      {h: hKey, cmd: "GETDEL"},
		"Digest":      {h: hKey, cmd: "DIGEST"},
		"PTTL":        {h: hKey, cmd: "PTTL"},
		"TTL":         {h: hKey, cmd: "TTL"},
		"Persist":     {h: hKey, cmd: "PERSIST"},
		"Incr":        {h: hKey, cmd: "INCR"},
		"IncrBy":      {h: hKeyAmount, cmd: "INCRBY"},
		"Expire":      {h: hKeyAmount, cmd: "EXPIRE"},
		"ExpireNX":    {h: hKeyAmount, cmd: "EXPIRE"},
		"ExpireXX":    {h: hKeyAmount, cmd: "EXPIRE"},
		"ExpireGT":    {h: hKeyAmount, cmd: "EXPIRE"},
		"ExpireLT":    {h: hKeyAmount, cmd: "EXPIRE"},
		"ExpireAt":    {h: hKeyAmount, cmd: "EXPIREAT"},
		"PExpire":     {h: hKeyAmount, cmd: "PEXPIRE"},
		"PExpireAt":   {h: hKeyAmount, cmd: "PEXPIREAT"},
		"Wait":        {h: hNoKey, cmd: "WAIT"},
		"WaitAOF":     {h: hNoKey, cmd: "WAITAOF"},
		"Eval":        {h: hEval, cmd: "EVAL"},
		"EvalRO":      {h: hEval, cmd: "EVAL_RO"},
		"EvalSha":     {h: hEval, cmd: "EVALSHA"},
		"EvalShaRO":   {h: hEval, cmd: "EVALSHA_RO"},
		"FCall":       {h: hEval, cmd: "FCALL"},
		"FCallRO":     {h: hEval, cmd: "FCALL_RO"},
		"FCallRo":     {h: hEval, cmd: "FCALL_RO"},
		"Do":          {h: hDo},
		"Process":     {h: hProcess},

		"TxPipelined": {h: hTxFunc, tx: Multi},
		"Pipelined":   {h: hTxFunc, tx: Pipeline},
		"TxPipeline":  {h: hTxNew, tx: Multi},
		"Pipeline":    {h: hTxNew, tx: Pipeline},
		"Exec":        {h: hTxExec},

		// The client Watch(ctx, fn, keys...) runs fn in a WATCH scope; the
		// commands are the ones fn sends on its *Tx. (*Tx).Watch sends WATCH.
		"Watch":    {h: hSkip},
		"Tx.Watch": {h: hKeys, cmd: "WATCH"},

		// SENTINEL SET, not SET.
		"SentinelClient.Set": {h: hSkip},

		"func NewScript":          {h: hScriptNew, arg: 0},
		"func NewScriptServerSHA": {h: hScriptNew, arg: 0},
		"Script.Run":              {h: hScriptRun, cmd: "EVALSHA"},
		"Script.RunRO":            {h: hScriptRun, cmd: "EVALSHA_RO"},
		"Script.Eval":             {h: hScriptRun, cmd: "EVAL"},
		"Script.EvalRO":           {h: hScriptRun, cmd: "EVAL_RO"},
		"Script.EvalSha":          {h: hScriptRun, cmd: "EVALSHA"},
		"Script.EvalShaRO":        {h: hScriptRun, cmd: "EVALSHA_RO"},
		"Script.Load":             {h: hSkip},
		// ScriptLoad(ctx, src) defines a script like a constructor: the SHA
		// its reply holds is what EvalSha runs (resolver.shaScript).
		"ScriptLoad":    {h: hScriptNew, arg: 0},
		"Script.Exists": {h: hSkip},
	}
	return m
}

// valkeySpecs are the valkey-go / rueidis client entry points; the commands
// themselves come from the builder (builderSteps).
func valkeySpecs() map[string]spec {
	m := map[string]spec{
		"Do":            {h: hVkDo},
		"DoCache":       {h: hVkDo},
		"DoStream":      {h: hVkDo},
		"DoMulti":       {h: hVkDoMulti},
		"DoMultiStream": {h: hVkDoMulti},
		"Lua.Exec":      {h: hLuaExec},
		"Lua.ExecMulti": {h: hLuaExecMult},
	}
	for _, c := range []struct {
		name      string
		noSha, ro bool
	}{
		{"NewLuaScript", false, false},
		{"NewLuaScriptReadOnly", false, true},
		{"NewLuaScriptNoSha", true, false},
		{"NewLuaScriptReadOnlyNoSha", true, true},
		{"NewLuaScriptRetryable", false, false},
		{"NewLuaScriptNoShaRetryable", true, false},
	} {
		m["func "+c.name] = spec{h: hScriptNew, arg: 0, noSha: c.noSha, ro: c.ro}
	}
	return m
}

func redigoSpecs() map[string]spec {
	return map[string]spec{
		"Do":                 {h: hRgDo},
		"Send":               {h: hRgDo},
		"DoContext":          {h: hRgDo},
		"DoWithTimeout":      {h: hRgDo},
		"func DoContext":     {h: hRgDoFunc},
		"func DoWithTimeout": {h: hRgDoFunc},
		"func NewScript":     {h: hScriptNew, arg: 1},
		"Script.Do":          {h: hRgScriptRun, cmd: "EVALSHA"},
		"Script.DoContext":   {h: hRgScriptRun, cmd: "EVALSHA"},
		"Script.SendHash":    {h: hRgScriptRun, cmd: "EVALSHA"},
		"Script.Send":        {h: hRgScriptRun, cmd: "EVAL"},
		"Script.Load":        {h: hSkip},
	}
}

// glideSpecs cover the glide package, its interfaces package, and (without
// a context) pipeline.BaseBatch[T].
func glideSpecs() map[string]spec {
	return map[string]spec{
		"Set":                            {h: hSet, cmd: "SET"},
		"SetWithOptions":                 {h: hGlSetOptions, cmd: "SET"},
		"Get":                            {h: hKey, cmd: "GET"},
		"GetDel":                         {h: hKey, cmd: "GETDEL"},
		"Del":                            {h: hGlKeySlice, cmd: "DEL"},
		"Unlink":                         {h: hGlKeySlice, cmd: "UNLINK"},
		"Exists":                         {h: hGlKeySlice, cmd: "EXISTS"},
		"Watch":                          {h: hGlKeySlice, cmd: "WATCH"},
		"Incr":                           {h: hKey, cmd: "INCR"},
		"IncrBy":                         {h: hKeyAmount, cmd: "INCRBY"},
		"PTTL":                           {h: hKey, cmd: "PTTL"},
		"Expire":                         {h: hKeyAmount, cmd: "EXPIRE"},
		"ExpireWithOptions":              {h: hKeyAmount, cmd: "EXPIRE"},
		"ExpireAt":                       {h: hKeyAmount, cmd: "EXPIREAT"},
		"PExpire":                        {h: hKeyAmount, cmd: "PEXPIRE"},
		"PExpireWithOptions":             {h: hKeyAmount, cmd: "PEXPIRE"},
		"PExpireAt":                      {h: hKeyAmount, cmd: "PEXPIREAT"},
		"Wait":                           {h: hNoKey, cmd: "WAIT"},
		"CustomCommand":                  {h: hGlCustom},
		"CustomCommandWithRoute":         {h: hGlCustom},
		"InvokeScript":                   {h: hGlInvoke, cmd: "EVALSHA"},
		"InvokeScriptWithOptions":        {h: hGlInvoke, cmd: "EVALSHA"},
		"InvokeScriptWithClusterOptions": {h: hGlInvoke, cmd: "EVALSHA"},
		"InvokeScriptWithRoute":          {h: hGlInvoke, cmd: "EVALSHA"},
		"Client.Exec":                    {h: hGlExec},
		"Client.ExecWithOptions":         {h: hGlExec},
		"ClusterClient.Exec":             {h: hGlExec},
		"ClusterClient.ExecWithOptions":  {h: hGlExec},
	}
}

func glideOptionsSpecs() map[string]spec {
	return map[string]spec{"func NewScript": {h: hScriptNew, arg: 0}}
}

func glidePipelineSpecs() map[string]spec {
	m := glideSpecs()
	for k, s := range m {
		if s.h == hGlExec {
			delete(m, k)
		}
	}
	m["func NewStandaloneBatch"] = spec{h: hGlBatchNew}
	m["func NewClusterBatch"] = spec{h: hGlBatchNew}
	return m
}

func radixSpecs(v4 bool) map[string]spec {
	m := map[string]spec{
		"Do":                 {h: hRxDo},
		"func Cmd":           {h: hRxAction},
		"func FlatCmd":       {h: hRxAction},
		"EvalScript.Cmd":     {h: hRxAction},
		"EvalScript.FlatCmd": {h: hRxAction},
	}
	if v4 {
		m["func NewEvalScript"] = spec{h: hScriptNew, arg: 0}
	} else {
		m["func NewEvalScript"] = spec{h: hScriptNew, arg: 1}
	}
	return m
}

// knowledge maps a package path (vendor prefix stripped) to what lockaudit
// knows about it. It is filled on first use (known), not at start-up: a
// command that analyses no code never builds it.
var (
	knowledge     = map[string]*pkgInfo{}
	knowledgeOnce sync.Once
)

// known returns what lockaudit knows about the package path (vendor prefix
// stripped), or nil.
func known(path string) *pkgInfo {
	knowledgeOnce.Do(registerAll)
	return knowledge[path]
}

func register(paths []string, p *pkgInfo) {
	for _, path := range paths {
		knowledge[path] = p
	}
}

// Paths of the valkey-go/rueidis builder packages.
const (
	valkeyCmdsPath  = "github.com/valkey-io/valkey-go/internal/cmds"
	rueidisCmdsPath = "github.com/redis/rueidis/internal/cmds"
)

// The clients, by API. A client's traits are the facts the rules need
// about it (client.go); its rows below say which calls send what.
func goRedisClient(name string) *Client {
	return &Client{Name: name, API: APIGoRedis, LostIsError: true, Tx: TxCallback | TxObject | TxSequence}
}

// nanosClient marks a client that sends a raw time.Duration argument as
// nanoseconds (Client.DurationNanos).
func nanosClient(c *Client) *Client {
	c.DurationNanos = true
	return c
}

func adapterClient(name string) *Client {
	return &Client{Name: name, API: APIAdapter, Tx: TxCallback | TxObject | TxSequence}
}

func builderClient(name string) *Client {
	return &Client{Name: name, API: APIBuilder, LostIsError: true, Tx: TxList | TxSequence}
}

// lockerLib is valkeylock's and rueidislock's library: every step in Lua.
func lockerLib(name string) *LockLibrary {
	return &LockLibrary{
		Module:  name,
		Lua:     map[string]string{"locker": "Lua acquire, extend and release", "acquire": "Lua acquire, extend and release"},
		Summary: name + " runs every step (acquire, extend, release on cancel) as a Lua script",
	}
}

// registerAll fills knowledge (once, from known).
func registerAll() {
	// One table per API shape, shared by the packages that have it (read only).
	goRedisAPI, valkeyAPI := goRedisSpecs(), valkeySpecs()
	goRedis := (*resolver).goRedis

	register([]string{"github.com/redis/go-redis/v9"}, &pkgInfo{client: nanosClient(goRedisClient("go-redis/v9")), handle: goRedis, dialect: goRedisDialect{keepTTL: true}, specs: goRedisAPI})
	register([]string{"github.com/go-redis/redis/v8"}, &pkgInfo{client: nanosClient(goRedisClient("go-redis/v8")), handle: goRedis, dialect: goRedisDialect{keepTTL: true, legacySetNX: true}, specs: goRedisAPI})
	// v9's release candidates, published under the old path before the
	// module moved to redis/go-redis: v8's API (SetNX(..., 0) sends SETNX).
	register([]string{"github.com/go-redis/redis/v9"}, &pkgInfo{client: nanosClient(goRedisClient("go-redis/v9-rc")), handle: goRedis, dialect: goRedisDialect{keepTTL: true, legacySetNX: true}, specs: goRedisAPI})
	register([]string{"github.com/go-redis/redis/v7"}, &pkgInfo{client: goRedisClient("go-redis/v7"), handle: goRedis, dialect: goRedisDialect{legacySetNX: true}, specs: goRedisAPI})
	register([]string{"github.com/go-redis/redis"}, &pkgInfo{client: goRedisClient("go-redis"), handle: goRedis, dialect: goRedisDialect{legacySetNX: true}, specs: goRedisAPI})
	register([]string{portPath}, &pkgInfo{client: portClient(), handle: goRedis, specs: portSpecs()})
	register([]string{"github.com/valkey-io/valkey-go/valkeycompat"}, &pkgInfo{client: adapterClient("valkeycompat"), handle: goRedis, dialect: goRedisDialect{keepTTL: true, legacySetNX: true}, specs: goRedisAPI})
	register([]string{"github.com/redis/rueidis/rueidiscompat"}, &pkgInfo{client: adapterClient("rueidiscompat"), handle: goRedis, dialect: goRedisDialect{keepTTL: true, legacySetNX: true}, specs: goRedisAPI})

	valkey := &pkgInfo{client: builderClient("valkey-go"), handle: (*resolver).valkey, specs: valkeyAPI}
	rueidis := &pkgInfo{client: builderClient("rueidis"), handle: (*resolver).valkey, specs: valkeyAPI}
	register([]string{"github.com/valkey-io/valkey-go"}, valkey)
	register([]string{valkeyCmdsPath}, &pkgInfo{client: valkey.client, handle: (*resolver).noteChain, builder: true, cmdsOf: valkey})
	register([]string{"github.com/redis/rueidis"}, rueidis)
	register([]string{rueidisCmdsPath}, &pkgInfo{client: rueidis.client, handle: (*resolver).noteChain, builder: true, cmdsOf: rueidis})

	register([]string{"github.com/gomodule/redigo/redis", "github.com/garyburd/redigo/redis"}, &pkgInfo{
		client: &Client{Name: "redigo", API: APIRaw, Tx: TxSequence}, handle: (*resolver).redigo, specs: redigoSpecs()})

	glide := &Client{Name: "glide", API: APIGlide, Tx: TxObject | TxSequence}
	register([]string{"github.com/valkey-io/valkey-glide/go/v2", "github.com/valkey-io/valkey-glide/go/v2/interfaces"}, &pkgInfo{client: glide, handle: (*resolver).glide, specs: glideSpecs()})
	register([]string{"github.com/valkey-io/valkey-glide/go/v2/options"}, &pkgInfo{client: glide, handle: (*resolver).glide, specs: glideOptionsSpecs()})
	register([]string{"github.com/valkey-io/valkey-glide/go/v2/pipeline"}, &pkgInfo{client: glide, handle: (*resolver).glide, specs: glidePipelineSpecs()})

	register([]string{"github.com/mediocregopher/radix/v3"}, &pkgInfo{
		client: &Client{Name: "radix/v3", API: APIAction, Replies: InReceiver, Tx: TxList | TxSequence}, handle: (*resolver).radix, specs: radixSpecs(false)})
	register([]string{"github.com/mediocregopher/radix/v4"}, &pkgInfo{
		client: &Client{Name: "radix/v4", API: APIAction, Replies: InReceiver, Tx: TxList | TxSequence}, handle: (*resolver).radix, specs: radixSpecs(true), dialect: radixDialect{v4: true}})

	// go-zero's Redis wrapper and, in the same package, its RedisLock: both
	// steps in Lua, no extend, a lost lock reported as false.
	register([]string{"github.com/zeromicro/go-zero/core/stores/redis"}, &pkgInfo{
		client: &Client{Name: "go-zero", API: APIGoZero, Tx: TxCallback | TxObject}, handle: (*resolver).goZero, specs: goZeroSpecs(),
		lib: &Client{Name: "go-zero", API: APILibrary, Lib: &LockLibrary{
			Module:  "go-zero",
			Lua:     map[string]string{"acquire": "Lua acquire", "release": "Lua release"},
			Summary: "go-zero's RedisLock acquires and releases with Lua scripts",
			Lost:    "false",
		}}})

	// Lock libraries. redsync acquires natively (SET NX PX); its extend and
	// release are Lua. redislock and valkeylock/rueidislock do every step in
	// Lua; so does go-zero's RedisLock, which has no extend.
	redsync := &Client{Name: "redsync", API: APILibrary, LostIsError: true, Lib: &LockLibrary{
		Module:  "redsync",
		Lua:     map[string]string{"release": "Lua release", "extend": "Lua extend"},
		Summary: "redsync extends and releases with Lua scripts (its acquire is a native SET NX PX)",
		Lost:    "ErrTaken, ErrExtendFailed, ErrLockAlreadyExpired",
	}}
	// redsync's scripts are built with its internal redis.NewScript(n, src, hash).
	register([]string{"github.com/go-redsync/redsync/v4/redis"}, &pkgInfo{client: redsync, handle: (*resolver).redigo, specs: map[string]spec{
		"func NewScript": {h: hScriptNew, arg: 1},
	}})
	register([]string{"github.com/go-redsync/redsync/v4"}, &pkgInfo{client: redsync, handle: (*resolver).library, specs: map[string]spec{
		"Mutex.Lock":           {h: hLib, step: "acquire"},
		"Mutex.LockContext":    {h: hLib, step: "acquire"},
		"Mutex.TryLock":        {h: hLib, step: "acquire"},
		"Mutex.TryLockContext": {h: hLib, step: "acquire"},
		"Mutex.Unlock":         {h: hLib, step: "release"},
		"Mutex.UnlockContext":  {h: hLib, step: "release"},
		"Mutex.Extend":         {h: hLib, step: "extend"},
		"Mutex.ExtendContext":  {h: hLib, step: "extend"},
		"Redsync.NewMutex":     {h: hLib, step: "locker", keyArg: 1, optArg: 2},
	}})
	// redsync before v4 (github.com/go-redsync/redsync v1, /v2, /v3): the
	// same steps (SET NX PX acquire, Lua extend and release), no Context
	// variants, and a lost lock is Unlock's or Extend's false (v1 returns
	// only the bool; v2 and v3 return false with a nil error when the
	// script found another token).
	oldRedsync := &Client{Name: "redsync", API: APILibrary, Lib: &LockLibrary{
		Module:  "redsync",
		Lua:     redsync.Lib.Lua,
		Summary: redsync.Lib.Summary,
		Lost:    "false",
	}}
	register([]string{"github.com/go-redsync/redsync", "github.com/go-redsync/redsync/v2", "github.com/go-redsync/redsync/v3"}, &pkgInfo{client: oldRedsync, handle: (*resolver).library, specs: map[string]spec{
		"Mutex.Lock":       {h: hLib, step: "acquire"},
		"Mutex.Unlock":     {h: hLib, step: "release"},
		"Mutex.Extend":     {h: hLib, step: "extend"},
		"Redsync.NewMutex": {h: hLib, step: "locker", keyArg: 1, optArg: 2},
	}})
	register([]string{"github.com/bsm/redislock"}, &pkgInfo{client: &Client{Name: "redislock", API: APILibrary, LostIsError: true, Lib: &LockLibrary{
		Module:  "bsm/redislock",
		Lua:     map[string]string{"acquire": "Lua acquire", "extend": "Lua extend", "release": "Lua release", "ttl": "Lua TTL read"},
		Summary: "bsm/redislock runs every step (obtain, refresh, release, TTL) as a Lua script",
		Lost:    "ErrLockNotHeld",
	}}, handle: (*resolver).library, specs: map[string]spec{
		"func Obtain":   {h: hLib, step: "acquire", keyArg: 2, ttlArg: 3, optArg: 4},
		"Client.Obtain": {h: hLib, step: "acquire", keyArg: 1, ttlArg: 2, optArg: 3},
		"Lock.Refresh":  {h: hLib, step: "extend", ttlArg: 1},
		"Lock.Release":  {h: hLib, step: "release"},
		"Lock.TTL":      {h: hLib, step: "ttl"},
	}})
	lockerAPI := map[string]spec{
		"func NewLocker":   {h: hLib, step: "locker"},
		"WithContext":      {h: hLib, step: "acquire", keyArg: 1},
		"TryWithContext":   {h: hLib, step: "acquire", keyArg: 1},
		"ForceWithContext": {h: hLib, step: "acquire", keyArg: 1},
	}
	register([]string{"github.com/valkey-io/valkey-go/valkeylock"}, &pkgInfo{client: &Client{Name: "valkeylock", API: APILibrary, LostIsError: true, Lib: lockerLib("valkeylock")}, handle: (*resolver).library, specs: lockerAPI})
	register([]string{"github.com/redis/rueidis/rueidislock"}, &pkgInfo{client: &Client{Name: "rueidislock", API: APILibrary, LostIsError: true, Lib: lockerLib("rueidislock")}, handle: (*resolver).library, specs: lockerAPI})

	indexClients()
}

// builderCommands names the builder's first step when the command is not
// the upper-cased method name (multi-word commands, the _RO variants).
var builderCommands = map[string]string{
	"EvalRo":     "EVAL_RO",
	"EvalshaRo":  "EVALSHA_RO",
	"FcallRo":    "FCALL_RO",
	"ScriptLoad": "SCRIPT LOAD",
}

// stepKind says what a builder step adds to the command.
type stepKind int

const (
	stepArg     stepKind = iota + 1 // its arguments, in order
	stepKey                         // its arguments, which are keys
	stepWord                        // a keyword
	stepWordArg                     // a keyword followed by its argument
	stepFinish                      // Build(), Cache(), Pin() ...: nothing
)

type stepSpec struct {
	kind stepKind
	word string
}

// builderSteps describes the builder methods after the command step. A step
// not listed here makes the Op incomplete (its effect is unknown).
var builderSteps = map[string]stepSpec{
	"Key":  {kind: stepKey},
	"Keys": {kind: stepKey},

	"Value": {kind: stepArg}, "Seconds": {kind: stepArg}, "Milliseconds": {kind: stepArg},
	"Timestamp": {kind: stepArg}, "MillisecondsTimestamp": {kind: stepArg},
	"Numreplicas": {kind: stepArg}, "Numlocal": {kind: stepArg}, "Timeout": {kind: stepArg},
	"Script": {kind: stepArg}, "Sha1": {kind: stepArg}, "Function": {kind: stepArg},
	"Numkeys": {kind: stepArg}, "Arg": {kind: stepArg}, "Args": {kind: stepArg},
	"Increment": {kind: stepArg}, "Decrement": {kind: stepArg},

	"Nx": {kind: stepWord, word: "NX"}, "Xx": {kind: stepWord, word: "XX"},
	"Gt": {kind: stepWord, word: "GT"}, "Lt": {kind: stepWord, word: "LT"},
	"Get": {kind: stepWord, word: "GET"}, "Keepttl": {kind: stepWord, word: "KEEPTTL"},

	"Ifeq": {kind: stepWordArg, word: "IFEQ"}, "Ifne": {kind: stepWordArg, word: "IFNE"},
	"Ifdeq": {kind: stepWordArg, word: "IFDEQ"}, "Ifdne": {kind: stepWordArg, word: "IFDNE"},
	"Ex": {kind: stepWordArg, word: "EX"}, "ExSeconds": {kind: stepWordArg, word: "EX"},
	"Px": {kind: stepWordArg, word: "PX"}, "PxMilliseconds": {kind: stepWordArg, word: "PX"},
	"Exat": {kind: stepWordArg, word: "EXAT"}, "ExatTimestamp": {kind: stepWordArg, word: "EXAT"},
	"Pxat": {kind: stepWordArg, word: "PXAT"}, "PxatMillisecondsTimestamp": {kind: stepWordArg, word: "PXAT"},

	"Build": {kind: stepFinish}, "Cache": {kind: stepFinish}, "Blocking": {kind: stepFinish},
	"ReadOnly": {kind: stepFinish}, "MultiGet": {kind: stepFinish}, "Pin": {kind: stepFinish},
	"ToRetryable": {kind: stepFinish}, "ToPipe": {kind: stepFinish}, "UnblockOnCancel": {kind: stepFinish},
}

// rawKeys says where the keys of a raw command are: the index of the first
// key among the arguments after the command name, and how many (-1: all
// remaining arguments; 0 with numkeys: the EVAL family).
var rawKeys = map[string]struct{ first, n int }{
	"SET": {0, 1}, "SETNX": {0, 1}, "SETEX": {0, 1}, "PSETEX": {0, 1},
	"GET": {0, 1}, "GETDEL": {0, 1}, "DELIFEQ": {0, 1}, "DELEX": {0, 1}, "DIGEST": {0, 1},
	"EXPIRE": {0, 1}, "PEXPIRE": {0, 1}, "EXPIREAT": {0, 1}, "PEXPIREAT": {0, 1},
	"PTTL": {0, 1}, "TTL": {0, 1}, "PERSIST": {0, 1},
	"INCR": {0, 1}, "INCRBY": {0, 1}, "DECR": {0, 1}, "DECRBY": {0, 1},
	"DEL": {0, -1}, "UNLINK": {0, -1}, "EXISTS": {0, -1}, "WATCH": {0, -1},
}
