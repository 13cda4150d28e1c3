// Package port exercises a lock library's own client interface that no
// type in view implements: its users write the adapters. A method named
// and shaped like go-redis's Eval or SetNX sends that command; a look-alike
// shape, or an interface the package implements, does not.
package port

import (
	"context"
	"time"
)

// RedisClient is what the library asks of any client.
type RedisClient interface {
	SetNX(ctx context.Context, key string, value any, expireSeconds int64) (bool, error)
	Eval(ctx context.Context, script string, keys []string, args ...any) (any, error)
}

// Cmd is the reply an adapter hands back.
type Cmd interface {
	Int64() (int64, error)
}

// Scripter is the EVAL half of a client, its reply wrapped, no context.
type Scripter interface {
	EvalSha(sha string, keys []string, args ...interface{}) Cmd
	SetNX(key, value string, ttl time.Duration) Cmd
}

// Runner takes the arguments as one slice.
type Runner interface {
	Eval(c context.Context, cmd string, keys []string, args []interface{}) (interface{}, error)
}

const release = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

func use(ctx context.Context, c RedisClient, s Scripter, r Runner, key, token, sha string) {
	r.Eval(ctx, release, []string{key}, []interface{}{token}) // want `^\QEVAL key=key script=release(inline) client=client interface\E$`
	c.SetNX(ctx, key, token, 30)                              // want `^\QSET key=key value=token NX ttl=expire ttlexpr=30 client=client interface\E$`
	c.Eval(ctx, release, []string{key}, token)                // want `^\QEVAL key=key script=release(inline) client=client interface\E$`
	s.EvalSha(sha, []string{key}, token)                      // want `^\QEVALSHA key=key client=client interface\E$`
	s.SetNX(key, token, time.Second)                          // want `^\QSET key=key value=token NX ttl=expire ttlexpr=time.Second client=client interface\E$`
}

// Look-alikes: an Eval of an expression language (no keys), a SetNX whose
// third parameter is no TTL.
type Evaluator interface {
	Eval(ctx context.Context, expr string, vars map[string]any) (any, error)
	SetNX(ctx context.Context, key string, value any, owner string) (bool, error)
}

func lookAlike(ctx context.Context, e Evaluator, key, token string) {
	e.Eval(ctx, release, nil)
	e.SetNX(ctx, key, token, "me")
}

// An interface the package implements (in memory): its implementations
// decide, and this one sends nothing.
type Store interface {
	Eval(ctx context.Context, script string, keys []string, args ...any) (any, error)
}

type memStore struct{}

func (memStore) Eval(ctx context.Context, script string, keys []string, args ...any) (any, error) {
	return nil, nil
}

func implemented(ctx context.Context, s Store, key, token string) {
	s.Eval(ctx, release, []string{key}, token)
}
