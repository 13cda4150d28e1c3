// Package sharedkey: one key builder, serialKey, serves the lock helper and
// the generic cache helpers. The generic Expire is judged at its callers:
// silent for a cache entry, an extend without an owner check where the
// caller renews the master lock through it.
package sharedkey

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

type Store struct{ rdb *redis.Client }

func serialKey(key string) string { return "svc:" + key }

func (s *Store) Lock(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, serialKey(key), token, ttl).Result()
}

// Expire is a generic cache helper over the lock's key builder.
func (s *Store) Expire(ctx context.Context, key string, ttl time.Duration) error {
	return s.rdb.Expire(ctx, serialKey(key), ttl).Err()
}

// Renew is named for the lock step: the same EXPIRE is an extend here.
func (s *Store) Renew(ctx context.Context, key string) error {
	return s.rdb.PExpire(ctx, serialKey(key), ttl).Err() // want "^PEXPIRE of lock key `serialKey\\(key\\)` extends whoever holds it now"
}

func touchSession(ctx context.Context, s *Store) {
	_ = s.Expire(ctx, "session:1", time.Hour)
}

// The master lock renewed with a plain EXPIRE through the generic wrapper.
func master(ctx context.Context, s *Store, token string, stop <-chan struct{}) {
	if ok, _ := s.Lock(ctx, "master", token, ttl); !ok {
		return
	}
	for {
		select {
		case <-stop:
			return
		case <-time.After(ttl / 3):
			_ = s.Expire(ctx, "master", ttl) // want `^EXPIRE of lock key "master" extends whoever holds it now`
		}
	}
}
