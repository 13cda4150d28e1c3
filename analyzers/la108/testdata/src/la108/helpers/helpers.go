// Package helpers: helpers that run a release or extend and hand its
// outcome back: the caller that drops it is LA108's.
package helpers

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var (
	release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)
	extend  = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`)
)

var errNotLocked = errors.New("not locked")

// unlock returns whether it released.
func unlock(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	n, err := release.Run(ctx, rdb, []string{key}, token).Int()
	return n == 1, err
}

// refresh reports a lost lock as errNotLocked (valkeylock's script()).
func refresh(ctx context.Context, rdb *redis.Client, key, token string) error {
	n, err := extend.Run(ctx, rdb, []string{key}, token, 30000).Int()
	if err != nil || n == 1 {
		return err
	}
	return errNotLocked
}

// unlockErr drops the outcome itself (LA108 here), returning only the error.
func unlockErr(ctx context.Context, rdb *redis.Client, key, token string) error {
	return release.Run(ctx, rdb, []string{key}, token).Err() // want `^only the error of the Lua release script \(EVALSHA key\) is checked`
}

func callers(ctx context.Context, rdb *redis.Client, token string) {
	_, _ = unlock(ctx, rdb, "lock:a", token)                     // want `^reply of the Lua release in unlock is discarded, but 0 means the lock was lost`
	unlock(ctx, rdb, "lock:a", token)                            // want `^reply of the Lua release in unlock`
	if _, err := unlock(ctx, rdb, "lock:a", token); err != nil { // want `^only the error of the Lua release in unlock is checked`
		return
	}
	refresh(ctx, rdb, "lock:a", token) // want `^reply of the Lua extend in refresh is discarded`

	// Negatives: the outcome is read; the helper dropped it already.
	if ok, err := unlock(ctx, rdb, "lock:a", token); err != nil || !ok {
		return
	}
	if err := refresh(ctx, rdb, "lock:a", token); err != nil {
		return
	}
	_ = unlockErr(ctx, rdb, "lock:a", token)
	if err := unlockErr(ctx, rdb, "lock:a", token); err != nil {
		return
	}
}
