// Package lock: the same scripts where there is lock evidence.
package lock

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const cadSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

const extendSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`

// The variable's name says lock.
var unlockScript = redis.NewScript(cadSrc) // want `Lua lock script \(release\)`

// The receiver's name says lock.
type Mutex struct {
	rdb        *redis.Client
	key, token string
}

func (m *Mutex) Refresh(ctx context.Context) error {
	return m.rdb.Eval(ctx, extendSrc, []string{m.key}, m.token, 30000).Err() // want `Lua lock script \(extend\)`
}

// The key matches the lock-key pattern.
func finish(ctx context.Context, rdb *redis.Client, job, token string) error {
	return rdb.Eval(ctx, cadSrc, []string{"jobs:" + job + ":lock"}, token).Err() // want `Lua lock script \(release\)`
}
