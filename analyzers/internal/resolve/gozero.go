package resolve

import (
	"go/ast"
	"go/types"
)

// goZero resolves go-zero's Redis wrapper (core/stores/redis): helpers
// without a context and ...Ctx twins with one, returning (value, error),
// expiries in whole seconds, scripts run by the client (ScriptRun), and
// pipelines that hand out go-redis's Pipeliner (whose calls are go-redis
// Ops). Its RedisLock is a lock library in the same package. Apart from
// ScriptRun and the lock, its helpers have go-redis's argument shapes.
func (r *resolver) goZero(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	switch s.h {
	case hLib:
		r.library(fn, info, s, call, stack)
	case hScriptArg:
		// ScriptRun(script *Script, keys []string, args...): the script
		// object is the first argument, the client the receiver.
		a := args(fn.Signature(), call)
		op := r.newOp(Command, info, call, stack)
		op.conn = r.rootObj(receiver(call))
		r.runArgs(op, a, call.Ellipsis.IsValid())
		if len(a) > 0 {
			r.runs = append(r.runs, scriptRun{op: op, recv: a[0]})
		}
	default:
		r.goRedis(fn, info, s, call, stack)
	}
}

// goZeroSpecs are go-zero's Redis helpers; each has a ...Ctx twin taking a
// context first. Expiries are whole seconds (an int): 0 sets none.
func goZeroSpecs() map[string]spec {
	m := map[string]spec{}
	for name, s := range map[string]spec{
		"Set":               {h: hSet, cmd: "SET"},
		"Setnx":             {h: hSet, cmd: "SET", nx: true},
		"SetnxEx":           {h: hSet, cmd: "SET", nx: true},
		"Setex":             {h: hSetEx, cmd: "SETEX"},
		"Get":               {h: hKey, cmd: "GET"},
		"GetDel":            {h: hKey, cmd: "GETDEL"},
		"Del":               {h: hKeys, cmd: "DEL"},
		"Unlink":            {h: hKeys, cmd: "UNLINK"},
		"Exists":            {h: hKey, cmd: "EXISTS"},
		"ExistsMany":        {h: hKeys, cmd: "EXISTS"},
		"Ttl":               {h: hKey, cmd: "TTL"},
		"Persist":           {h: hKey, cmd: "PERSIST"},
		"Incr":              {h: hKey, cmd: "INCR"},
		"Incrby":            {h: hKeyAmount, cmd: "INCRBY"},
		"Expire":            {h: hKeyAmount, cmd: "EXPIRE"},
		"Expireat":          {h: hKeyAmount, cmd: "EXPIREAT"},
		"Eval":              {h: hEval, cmd: "EVAL"},
		"EvalSha":           {h: hEval, cmd: "EVALSHA"},
		"ScriptRun":         {h: hScriptArg},
		"Pipelined":         {h: hTxFunc, tx: Pipeline},
		"TxPipeline":        {h: hTxNew, tx: Multi},
		"RedisLock.Acquire": {h: hLib, step: "acquire"},
		"RedisLock.Release": {h: hLib, step: "release"},
	} {
		m[name], m[name+"Ctx"] = s, s
	}
	delete(m, "TxPipelineCtx")
	m["func NewScript"] = spec{h: hScriptNew, arg: 0}
	m["func NewRedisLock"] = spec{h: hLib, step: "locker", keyArg: 2}
	return m
}
