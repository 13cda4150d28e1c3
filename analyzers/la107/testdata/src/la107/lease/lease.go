// Package lease: a lease over an interface of another package
// (la107/lease/locker) that this package's Redis lock implements: the
// call through the interface is judged by that implementation, so the
// mark it passes is the lock's token.
package lease

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"la107/lease/locker"
	"la107/tokens"
)

const cmdLock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) end return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`

const cmdUnlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`

type Lock struct {
	client  redis.UniversalClient
	retries int
}

func (l *Lock) lock(key string, expire int, mark string) error {
	resp, err := l.client.Eval(context.Background(), cmdLock, []string{key}, []string{mark, strconv.Itoa(expire)}).Result()
	if err != nil {
		return err
	}
	if resp == nil {
		return errors.New("lock failed")
	}
	return nil
}

// Lock retries the acquire (gkit's shape: the wrapper calls a wrapper).
func (l *Lock) Lock(key string, expire int, mark string) error {
	var err error
	for i := 0; i < l.retries+1; i++ {
		if err = l.lock(key, expire, mark); err == nil {
			break
		}
	}
	return err
}

func (l *Lock) UnLock(key string, mark string) error {
	n, err := l.client.Eval(context.Background(), cmdUnlock, []string{key}, mark).Int()
	if err == nil && n == 0 {
		return errors.New("not held")
	}
	return err
}

func NewRedisLock(c redis.UniversalClient) locker.Locker { return &Lock{client: c} }

// LeaseLock draws the mark from a time-seeded math/rand helper, and
// renews by re-running the acquire with the same mark: one token, one
// report.
func LeaseLock(lock locker.Locker, key string, expire int) error {
	mark := tokens.Randn(6)
	if err := lock.Lock(key, expire, mark); err != nil { // want `it comes from math/rand seeded with time\.Now;`
		return err
	}
	go func() {
		for range time.Tick(time.Second) {
			_ = lock.Lock(key, expire, mark)
		}
	}()
	return nil
}

// Negatives: a crypto/rand mark through the same interface; an interface
// of another package implemented here by an in-memory type only.

func StrongLease(lock locker.Locker, key string, expire int) error {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	return lock.Lock(key, expire, hex.EncodeToString(b))
}

type memCache map[string]string

func (m memCache) Put(key, value string) error { m[key] = value; return nil }

func Warm(c locker.Cache) error { return c.Put("lock:warm", tokens.Randn(6)) }
