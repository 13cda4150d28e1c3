// Package wrapped: scripts run or sent through the project's own
// wrappers keep no fix: the wrapper's call is not the client's.
package wrapped

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func NewScript(src string) *redis.Script { return redis.NewScript(src) }

type Store struct{ rdb *redis.Client }

func (s *Store) Run(ctx context.Context, sc *redis.Script, keys []string, args ...any) (any, error) {
	return sc.Run(ctx, s.rdb, keys, args...).Result()
}

func (s *Store) Eval(ctx context.Context, src string, keys []string, args ...any) (any, error) {
	return s.rdb.Eval(ctx, src, keys, args...).Result()
}

var unlock = NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // nofix: run through Store.Run // want `Lua lock script`

func release(ctx context.Context, s *Store, token string) {
	s.Run(ctx, unlock, []string{"lock:a"}, token)
	s.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, []string{"lock:a"}, token) // nofix: sent by Store.Eval // want `Lua lock script`
}
