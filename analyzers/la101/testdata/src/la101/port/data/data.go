// Package data is a cache over an interface of its own that no type in
// view implements: its compare-and-delete of an entry nothing acquires (an
// ETag check) is data, not a lock's release.
package data

import "context"

type RedisClient interface {
	Eval(ctx context.Context, script string, keys []string, args ...any) (any, error)
}

func DeleteIfVersion(ctx context.Context, c RedisClient, entry, version string) (bool, error) { // want DeleteIfVersion:"judged at callers"
	n, err := c.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{entry}, version)
	return n == int64(1), err
}
