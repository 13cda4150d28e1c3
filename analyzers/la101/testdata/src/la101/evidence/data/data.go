// Package data: compare-and-delete and compare-and-extend scripts of data,
// which have the exact shape of a lock's release and extend. Nothing in the
// package takes a lock, no key is a lock key and no name says lock: no lock
// evidence, so none is LA101.
package data

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const cadSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

// Delete a cache entry only if its bytes are unchanged. The key is the
// caller's, decorated with a prefix: judged at the callers, like the
// generic wrappers below.
var delIfUnchanged = redis.NewScript(cadSrc)

func Invalidate(ctx context.Context, rdb *redis.Client, key string, old []byte) error { // want Invalidate:"judged at callers"
	return delIfUnchanged.Run(ctx, rdb, []string{"cache:" + key}, old).Err()
}

// Keep a session alive while its id is unchanged.
var touch = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

func Touch(ctx context.Context, rdb *redis.Client, sid, owner string) error { // want Touch:"judged at callers"
	return touch.Run(ctx, rdb, []string{"session:" + sid}, owner, 30000).Err()
}

// A client library's generic wrappers: script, keys and values are the
// caller's.
type Client struct{ rdb *redis.Client }

func (c *Client) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return c.rdb.Eval(ctx, script, keys, args...)
}

func (c *Client) DelIfEqual(ctx context.Context, key, value string) *redis.Cmd { // want DelIfEqual:"judged at callers"
	return c.rdb.Eval(ctx, cadSrc, []string{key}, value)
}

// A paused-queue flag set with SETNX is no lock, so it makes no package
// evidence either.
func (c *Client) Pause(ctx context.Context, queue string) error {
	return c.rdb.SetNX(ctx, "paused:"+queue, time.Now().Unix(), 0).Err()
}
