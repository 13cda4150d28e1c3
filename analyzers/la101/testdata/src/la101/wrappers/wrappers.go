package wrappers

// The package's own wrappers: go-zero's NewScript (in the same package as
// its scripts), an EVAL wrapper, and a release helper.

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Script = redis.Script

func NewScript(script string) *Script {
	return redis.NewScript(script)
}

var (
	lockScript = NewScript(`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`)                                   // want `^Lua lock script \(acquire\): use SET key token NX PX ttl instead`
	delScript  = NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`) // want `^Lua lock script \(release\): use DELIFEQ key token instead`
	counter    = NewScript(`return redis.call("INCR", KEYS[1])`)
	fixedInner = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`) // want `^Lua lock script \(extend\): use SET key token IFEQ token PX ttl instead`
)

type Redis struct{ rdb *redis.Client }

func (s *Redis) ScriptRunCtx(ctx context.Context, script *Script, keys []string, args ...any) (any, error) {
	return script.Run(ctx, s.rdb, keys, args...).Result()
}

func (s *Redis) EvalCtx(ctx context.Context, script string, keys []string, args ...any) (any, error) {
	return s.rdb.Eval(ctx, script, keys, args...).Result()
}

// extend runs a script it fixes: reported where the script is, not at
// extend's callers.
func (s *Redis) extend(ctx context.Context, key, token string) (any, error) {
	return fixedInner.Run(ctx, s.rdb, []string{key}, token, 30000).Result()
}

func use(ctx context.Context, s *Redis, token string) {
	s.ScriptRunCtx(ctx, lockScript, []string{"lock:a"}, token, 30000)
	s.ScriptRunCtx(ctx, delScript, []string{"lock:a"}, token)
	s.ScriptRunCtx(ctx, counter, []string{"n"})
	s.EvalCtx(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{"lock:a"}, token) // want `^Lua lock script \(release\): use DELIFEQ key token instead`
	s.extend(ctx, "lock:a", token)
}
