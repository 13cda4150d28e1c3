// Package redisstore implements store.Locker on Redis: Unlock returns
// errNotHeld when the lock was no longer held.
package redisstore

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var errNotHeld = errors.New("lock not held")

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type Store struct{ rdb *redis.Client }

func New(rdb *redis.Client) *Store { return &Store{rdb: rdb} }

func (s *Store) Unlock(ctx context.Context, key, token string) error {
	n, err := release.Run(ctx, s.rdb, []string{key}, token).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return errNotHeld
	}
	return nil
}
