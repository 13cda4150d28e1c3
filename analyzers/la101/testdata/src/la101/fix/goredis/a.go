// Package goredis: LA101 fixes on go-redis v9. A script object that is the
// classic compare-and-delete is replaced by DELIFEQ at every run, and
// removed; an inline EVAL of it is rewritten where it is.
package goredis

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var errLost = errors.New("lost")

// unlock releases a lock if we still hold it.
var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `Lua lock script \(release\)`

func release(ctx context.Context, rdb *redis.Client, key, token string) error {
	n, err := unlock.Run(ctx, rdb, []string{key}, token).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return errLost
	}
	return nil
}

func releaseSha(ctx context.Context, rdb redis.UniversalClient, key, token string) error {
	return unlock.EvalSha(ctx, rdb, []string{key}, token).Err()
}

const releaseLua = `
-- compare-and-delete
local key = KEYS[1]
if redis.call('GET', key) ~= ARGV[1] then
	return 0
end
return redis.call('DEL', key)
`

func inline(ctx context.Context, rdb *redis.Client, key, token string) (int64, error) {
	return rdb.Eval(ctx, releaseLua, []string{key}, token).Int64() // want `Lua lock script \(release\)`
}

func local(ctx context.Context, rdb *redis.Client, key, token string) error {
	script := redis.NewScript(releaseLua) // want `Lua lock script \(release\)`
	return script.Run(ctx, rdb, []string{key}, token).Err()
}
