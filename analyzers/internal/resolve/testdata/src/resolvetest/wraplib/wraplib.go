package wraplib // want package:"reaches a client"

// A lock helper package of the project: its wrappers are used by
// resolvetest/wrapuse, through the Summary facts stated here.

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const release = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

var releaseScript = redis.NewScript(release)

// NewScript wraps the script constructor.
func NewScript(src string) *redis.Script { // want NewScript:`^\QSCRIPTDEF text=#0 results=value\E$`
	return redis.NewScript(src)
}

// Locker takes locks with go-redis.
type Locker struct{ rdb *redis.Client }

// Acquire passes key, token and lease through.
func (l *Locker) Acquire(ctx context.Context, key, token string, ttl time.Duration) (bool, error) { // want Acquire:`^\QSET key=#1 value=#2 NX ttl=expire ttlarg=#3(duration) results=value,error\E$`
	return l.rdb.SetNX(ctx, key, token, ttl).Result()
}

// Release runs the release script and returns whether it released.
func (l *Locker) Release(ctx context.Context, key, token string) (bool, error) { // want Release:`^\QEVALSHA key=#1 argv=#2 script=release results=value,error\E$`
	n, err := releaseScript.Run(ctx, l.rdb, []string{key}, token).Int()
	return n == 1, err
}

// Unlock deletes the key, whoever holds it.
func (l *Locker) Unlock(ctx context.Context, key string) error { // want Unlock:`^\QDEL key=#1 results=error dropped\E$`
	return l.rdb.Del(ctx, key).Err()
}

// Eval sends the caller's script.
func (l *Locker) Eval(ctx context.Context, script string, keys []string, args ...any) (any, error) { // want Eval:`^\QEVAL keys=#2... argv=#3... text=#1 results=value,error\E$`
	return l.rdb.Eval(ctx, script, keys, args...).Result()
}

// Conn is the project's client interface; its one implementation
// forwards to go-redis.
type Conn interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) // want SetNX:`^\QSET key=#1 value=#2 NX ttl=expire ttlarg=#3(duration) results=value,error\E$`
	Close() error
}

type conn struct{ rdb *redis.Client }

// NewConn returns a Conn over go-redis.
func NewConn(rdb *redis.Client) Conn { return conn{rdb} }

func (c conn) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) { // want SetNX:`^\QSET key=#1 value=#2 NX ttl=expire ttlarg=#3(duration) results=value,error\E$`
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c conn) Close() error { return nil }

// Mixed is an interface with a Redis-backed implementation and an
// in-memory one that sends nothing: a wrapper, as the Redis-backed one is.
type Mixed interface {
	Get(ctx context.Context, key string) (string, error) // want Get:`^\QGET key=#1 results=value,error\E$`
}

// Disagree is an interface whose Redis-backed implementations send
// different commands: no wrapper.
type Disagree interface {
	Fetch(ctx context.Context, key string) (string, error)
}

type byGet struct{ rdb *redis.Client }

func (b byGet) Fetch(ctx context.Context, key string) (string, error) { // want Fetch:`^\QGET key=#1 results=value,error\E$`
	return b.rdb.Get(ctx, key).Result()
}

type byGetDel struct{ rdb *redis.Client }

func (b byGetDel) Fetch(ctx context.Context, key string) (string, error) { // want Fetch:`^\QGETDEL key=#1 results=value,error\E$`
	return b.rdb.GetDel(ctx, key).Result()
}

type real struct{ rdb *redis.Client }

func (r real) Get(ctx context.Context, key string) (string, error) { // want Get:`^\QGET key=#1 results=value,error\E$`
	return r.rdb.Get(ctx, key).Result()
}

type fake struct{ m map[string]string }

func (f fake) Get(ctx context.Context, key string) (string, error) { return f.m[key], nil }
