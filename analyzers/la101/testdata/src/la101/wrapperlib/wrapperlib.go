// Package wrapperlib is a project's own Redis helper package: a wrapper
// of the script constructor, an EVAL wrapper, a client interface whose
// implementation forwards to go-redis, and a release helper.
package wrapperlib

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Script is the project's script type.
type Script = redis.Script

// NewScript wraps redis.NewScript: the caller's text is the script.
func NewScript(src string) *Script { return redis.NewScript(src) }

// Client is the project's client interface.
type Client interface {
	EvalInt(ctx context.Context, script string, keys []string, args ...any) (int, error)
	ScriptRun(ctx context.Context, sc *Script, keys []string, args ...any) (any, error)
}

type client struct{ rdb *redis.Client }

// New returns a Client over go-redis.
func New(rdb *redis.Client) Client { return client{rdb} }

func (c client) EvalInt(ctx context.Context, script string, keys []string, args ...any) (int, error) {
	return c.rdb.Eval(ctx, script, keys, args...).Int()
}

func (c client) ScriptRun(ctx context.Context, sc *Script, keys []string, args ...any) (any, error) {
	return sc.Run(ctx, c.rdb, keys, args...).Result()
}

// Not reported here: a compare-and-delete whose key is the caller's has no
// lock evidence in this package; it is judged at the callers.
var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// Release releases key if token still holds it.
func Release(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) { // want Release:"judged at callers"
	n, err := release.Run(ctx, rdb, []string{key}, token).Int()
	return n == 1, err
}
