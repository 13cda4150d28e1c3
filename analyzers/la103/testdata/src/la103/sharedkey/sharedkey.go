// Package sharedkey: one key builder, serialKey, serves the package's lock
// helper and its generic cache helpers. Lock evidence is per call: a DEL of
// serialKey(key) is a lock's release only where its own context is a lock
// step (Unlock), or where a caller passes a lock key through the generic
// wrapper; the generic Del, Expire and AutoDelete stay silent.
package sharedkey

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Store struct{ rdb *redis.Client }

func serialKey(key string) string { return "svc:" + key }

// Lock takes a lock on key.
func (s *Store) Lock(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, serialKey(key), token, ttl).Result()
}

// Unlock releases it with a plain DEL: its own context is a lock step.
func (s *Store) Unlock(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, serialKey(key)).Err() // want "^plain DEL of lock key `serialKey\\(key\\)` deletes whoever holds it"
}

// Del, Expire and AutoDelete are generic cache helpers over the same key
// builder: judged at their callers.
func (s *Store) Del(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, serialKey(key)).Err()
}

func (s *Store) Expire(ctx context.Context, key string, ttl time.Duration) error {
	return s.rdb.Expire(ctx, serialKey(key), ttl).Err()
}

func AutoDelete[T any](ctx context.Context, s *Store, key string, v T) T {
	s.rdb.Del(ctx, serialKey(key))
	return v
}

// Callers: a cache key is no lock; the master lock released through the
// generic Del is.
func clearUser(ctx context.Context, s *Store) {
	_ = s.Del(ctx, "user:1")
	AutoDelete(ctx, s, "user:2", 0)
}

func master(ctx context.Context, s *Store, token string) {
	if ok, _ := s.Lock(ctx, "master", token, time.Minute); !ok {
		return
	}
	_ = s.Del(ctx, "master") // want `^plain DEL in Del of lock key "master" deletes whoever holds it`
}
