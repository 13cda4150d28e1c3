// Package memstore: a store interface with a Redis-backed implementation
// and an in-memory one that sends nothing (livekit's ObjectStore). A
// release dropped through the interface is judged by the Redis-backed
// implementation, as it would be on the concrete type.
package memstore

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errUnlockFailed = errors.New("unlock failed")

type Store interface {
	LockRoom(ctx context.Context, room string, d time.Duration) (string, error)
	UnlockRoom(ctx context.Context, room, token string) error
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type RedisStore struct{ rc redis.UniversalClient }

func (s *RedisStore) LockRoom(ctx context.Context, room string, d time.Duration) (string, error) {
	token := room // the token's origin is not this test's question
	ok, err := s.rc.SetNX(ctx, "room_lock:"+room, token, d).Result()
	if err != nil || !ok {
		return "", errUnlockFailed
	}
	return token, nil
}

// UnlockRoom returns errUnlockFailed when the lock was no longer held.
func (s *RedisStore) UnlockRoom(ctx context.Context, room, token string) error {
	res, err := unlockScript.Run(ctx, s.rc, []string{"room_lock:" + room}, token).Result()
	if err != nil {
		return err
	}
	if i, ok := res.(int64); !ok || i != 1 {
		return errUnlockFailed
	}
	return nil
}

// LocalStore keeps rooms in memory: no lock to lose.
type LocalStore struct{}

func (LocalStore) LockRoom(context.Context, string, time.Duration) (string, error) { return "", nil }
func (LocalStore) UnlockRoom(context.Context, string, string) error                { return nil }

type Allocator struct{ store Store }

func (a *Allocator) CreateRoom(ctx context.Context, room string) error {
	token, err := a.store.LockRoom(ctx, room, 5*time.Second)
	if err != nil {
		return err
	}
	defer func() {
		_ = a.store.UnlockRoom(ctx, room, token) // want `^reply of the Lua release in UnlockRoom is discarded`
	}()
	return nil
}

// Negatives: the outcome examined through the interface, and on the
// concrete type.
func (a *Allocator) DeleteRoom(ctx context.Context, room string) error {
	token, err := a.store.LockRoom(ctx, room, 5*time.Second)
	if err != nil {
		return err
	}
	return a.store.UnlockRoom(ctx, room, token)
}

func direct(ctx context.Context, s *RedisStore, room, token string) {
	if err := s.UnlockRoom(ctx, room, token); err != nil {
		return
	}
}
