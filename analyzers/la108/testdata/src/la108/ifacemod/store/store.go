// Package store defines the lock store interface and an in-memory
// implementation; the Redis-backed one is in another package of the module
// (la108/ifacemod/redisstore).
package store

import "context"

type Locker interface {
	Unlock(ctx context.Context, key, token string) error
}

// Memory is a lock store for tests: nothing to lose.
type Memory struct{}

func (Memory) Unlock(context.Context, string, string) error { return nil }
