// Package quorum: a redsync v4 copy (jxo-me/redislock) whose failed-quorum
// cleanup releases on every pool through actOnPoolsAsync and drops the
// count of releases that found the token.
package quorum

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

var deleteScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`)

type Mutex struct {
	name   string
	value  string
	quorum int
	pools  []*redis.Client
}

func (m *Mutex) release(ctx context.Context, pool *redis.Client, value string) (bool, error) {
	status, err := deleteScript.Run(ctx, pool, []string{m.name}, value).Int64()
	if err != nil {
		return false, err
	}
	return status != 0, nil
}

func (m *Mutex) actOnPoolsAsync(actFn func(*redis.Client) (bool, error)) (int, error) {
	type result struct {
		Status bool
		Err    error
	}
	ch := make(chan result)
	for _, pool := range m.pools {
		go func(pool *redis.Client) {
			r := result{}
			r.Status, r.Err = actFn(pool)
			ch <- r
		}(pool)
	}
	n := 0
	var err error
	for range m.pools {
		r := <-ch
		if r.Status {
			n++
		} else if r.Err != nil {
			err = r.Err
		}
	}
	return n, err
}

// After a failed quorum, the cleanup drops the count entirely, through an
// immediately called literal or directly.
func (m *Mutex) LockContext(ctx context.Context, value string) error {
	func() (int, error) {
		return m.actOnPoolsAsync(func(pool *redis.Client) (bool, error) {
			return m.release(ctx, pool, value) // want `^reply of the Lua release in release is discarded`
		})
	}()
	m.actOnPoolsAsync(func(pool *redis.Client) (bool, error) {
		return m.release(ctx, pool, value) // want `^reply of the Lua release in release is discarded`
	})
	return nil
}

// Negative: the count is examined against the quorum.
func (m *Mutex) UnlockContext(ctx context.Context) (bool, error) {
	n, err := m.actOnPoolsAsync(func(pool *redis.Client) (bool, error) {
		return m.release(ctx, pool, m.value)
	})
	if n < m.quorum {
		return false, err
	}
	return true, nil
}

// The immediately called literal's count is kept and compared.
func (m *Mutex) unlockCounted(ctx context.Context) bool {
	n, _ := func() (int, error) {
		return m.actOnPoolsAsync(func(pool *redis.Client) (bool, error) {
			return m.release(ctx, pool, m.value)
		})
	}()
	return n >= m.quorum
}

// A helper that returns only an error may deal with the outcome itself:
// dropping its error says nothing about the release.
func (m *Mutex) withRetry(fn func() (bool, error)) error {
	for range 3 {
		ok, err := fn()
		if err == nil && ok {
			return nil
		}
	}
	return errLost
}

var errLost = errors.New("lost")

func (m *Mutex) releaseWithRetry(ctx context.Context) {
	_ = m.withRetry(func() (bool, error) {
		return m.release(ctx, m.pools[0], m.value)
	})
}
