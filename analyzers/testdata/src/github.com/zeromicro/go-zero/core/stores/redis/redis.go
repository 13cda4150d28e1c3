// Package redis is a stub of go-zero's core/stores/redis (v1.10.3): the
// Redis wrapper's lock-relevant helpers with their real signatures (each
// with its ...Ctx twin), its script and pipeline types (aliases of
// go-redis v9's), and RedisLock. The resolve layer's TestRealClients holds
// these shapes against the real module.
package redis

import (
	"context"

	red "github.com/redis/go-redis/v9"
)

type (
	// Redis defines a redis node/cluster.
	Redis struct{ Addr string }
	// Pipeliner is an alias of redis.Pipeliner.
	Pipeliner = red.Pipeliner
	// Script is an alias of redis.Script.
	Script = red.Script
)

func New(addr string) *Redis { return &Redis{Addr: addr} }

func NewScript(script string) *Script { return red.NewScript(script) }

func (s *Redis) Set(key, value string) error                         { return nil }
func (s *Redis) SetCtx(ctx context.Context, key, value string) error { return nil }
func (s *Redis) Setex(key, value string, seconds int) error          { return nil }
func (s *Redis) SetexCtx(ctx context.Context, key, value string, seconds int) error {
	return nil
}
func (s *Redis) Setnx(key, value string) (bool, error) { return false, nil }
func (s *Redis) SetnxCtx(ctx context.Context, key, value string) (bool, error) {
	return false, nil
}
func (s *Redis) SetnxEx(key, value string, seconds int) (bool, error) { return false, nil }
func (s *Redis) SetnxExCtx(ctx context.Context, key, value string, seconds int) (bool, error) {
	return false, nil
}
func (s *Redis) Get(key string) (string, error)                               { return "", nil }
func (s *Redis) GetCtx(ctx context.Context, key string) (string, error)       { return "", nil }
func (s *Redis) GetDel(key string) (string, error)                            { return "", nil }
func (s *Redis) Del(keys ...string) (int, error)                              { return 0, nil }
func (s *Redis) DelCtx(ctx context.Context, keys ...string) (int, error)      { return 0, nil }
func (s *Redis) Unlink(keys ...string) (int64, error)                         { return 0, nil }
func (s *Redis) Exists(key string) (bool, error)                              { return false, nil }
func (s *Redis) Ttl(key string) (int, error)                                  { return 0, nil }
func (s *Redis) Persist(key string) (bool, error)                             { return false, nil }
func (s *Redis) Incr(key string) (int64, error)                               { return 0, nil }
func (s *Redis) IncrCtx(ctx context.Context, key string) (int64, error)       { return 0, nil }
func (s *Redis) Incrby(key string, increment int64) (int64, error)            { return 0, nil }
func (s *Redis) Expire(key string, seconds int) error                         { return nil }
func (s *Redis) ExpireCtx(ctx context.Context, key string, seconds int) error { return nil }
func (s *Redis) Expireat(key string, expireTime int64) error                  { return nil }

func (s *Redis) Eval(script string, keys []string, args ...any) (any, error) { return nil, nil }
func (s *Redis) EvalCtx(ctx context.Context, script string, keys []string, args ...any) (any, error) {
	return nil, nil
}
func (s *Redis) EvalSha(sha string, keys []string, args ...any) (any, error) { return nil, nil }
func (s *Redis) ScriptLoad(script string) (string, error)                    { return "", nil }
func (s *Redis) ScriptRun(script *Script, keys []string, args ...any) (any, error) {
	return nil, nil
}
func (s *Redis) ScriptRunCtx(ctx context.Context, script *Script, keys []string, args ...any) (any, error) {
	return nil, nil
}

func (s *Redis) Pipelined(fn func(Pipeliner) error) error { return nil }
func (s *Redis) PipelinedCtx(ctx context.Context, fn func(Pipeliner) error) error {
	return nil
}
func (s *Redis) TxPipeline() (pipe Pipeliner, err error) { return nil, nil }

// A RedisLock is a redis lock: its acquire and release are Lua scripts.
type RedisLock struct {
	store   *Redis
	seconds uint32
	key     string
	id      string
}

func NewRedisLock(store *Redis, key string) *RedisLock { return &RedisLock{store: store, key: key} }

func (rl *RedisLock) Acquire() (bool, error)                       { return false, nil }
func (rl *RedisLock) AcquireCtx(ctx context.Context) (bool, error) { return false, nil }
func (rl *RedisLock) Release() (bool, error)                       { return false, nil }
func (rl *RedisLock) ReleaseCtx(ctx context.Context) (bool, error) { return false, nil }
func (rl *RedisLock) SetExpire(seconds int)                        {}
