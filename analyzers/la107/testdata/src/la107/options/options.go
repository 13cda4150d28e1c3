// Package options: tokens fixed in a lock library's options.
package options

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/google/uuid"
)

func bsmToken(ctx context.Context, c *redislock.Client) {
	c.Obtain(ctx, "lock:job", time.Minute, &redislock.Options{Token: "worker-1"}) // want `^lock token is not unique per acquisition: it comes from the constant "worker-1";`
}

func bsmTokenVar(ctx context.Context, c redislock.RedisClient) {
	opts := &redislock.Options{Token: "worker-1"}
	redislock.Obtain(ctx, c, "lock:job", time.Minute, opts) // want `it comes from the constant "worker-1";`
}

func redsyncValue(rs *redsync.Redsync) {
	m := rs.NewMutex("lock:job", redsync.WithExpiry(time.Minute), redsync.WithValue("fixed")) // want `^lock token is not unique per acquisition: it comes from the constant "fixed";`
	m.Lock()
}

func redsyncGen(rs *redsync.Redsync) {
	m := rs.NewMutex("lock:job", redsync.WithGenValueFunc(func() (string, error) { return "fixed", nil })) // want `it comes from the constant "fixed";`
	m.Lock()
}

func constGen() (string, error) { return "node-a", nil }

func redsyncGenFunc(rs *redsync.Redsync) {
	rs.NewMutex("lock:job", redsync.WithGenValueFunc(constGen)) // want `it comes from the constant "node-a";`
}

// Negatives: random tokens, and the library's own.

func fine(ctx context.Context, c *redislock.Client, rs *redsync.Redsync) {
	c.Obtain(ctx, "lock:job", time.Minute, &redislock.Options{Token: uuid.NewString()})
	c.Obtain(ctx, "lock:job", time.Minute, nil)
	rs.NewMutex("lock:job", redsync.WithValue(uuid.NewString()))
	rs.NewMutex("lock:job", redsync.WithGenValueFunc(func() (string, error) { return uuid.NewString(), nil }))
	rs.NewMutex("lock:job")
}
