// Package guarded: a lock taken in Lua by EXISTS == 0 then SET and
// PEXPIRE (cheerego/go-redisson's Mutex), a set-if-absent without NX. By
// its text it is a cache fill with a TTL; it is an acquire only where the
// Go side says lock: a name around it (a Mutex, TryLock, Unlock) and a
// release or renewal of the same key in the package.
package guarded

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Mutex struct {
	rdb *redis.Client
	Key string
}

const mutexAcquire = `
if (redis.call('exists', KEYS[1]) == 0) then
	redis.call('set', KEYS[1], 1);
	redis.call('pexpire', KEYS[1], ARGV[1]);
	return 0;
end;
return redis.call('pttl', KEYS[1]);`

func (m *Mutex) tryAcquire(ctx context.Context, lease int64) (int64, error) {
	return m.rdb.Eval(ctx, mutexAcquire, []string{m.Key}, lease).Int64() // want `^Lua lock script \(acquire\): use SET key token NX PX ttl instead$`
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Eval(ctx, `if redis.call('exists', KEYS[1]) == 0 then return 0 end
redis.call('del', KEYS[1]) redis.call('publish', KEYS[2], ARGV[1]) return 1`, []string{m.Key, m.Key + ":ch"}, "unlocked").Err()
}

// A script object whose runs take the key a native DEL frees, in a Locker.
var takeIfFree = redis.NewScript(takeIfFreeText) // want `^Lua lock script \(acquire\): use SET key token NX PX ttl instead$`

const takeIfFreeText = `if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
return redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])`

type Locker struct{ rdb *redis.Client }

func (l *Locker) TryLock(ctx context.Context, name, token string) error {
	return takeIfFree.Run(ctx, l.rdb, []string{"job:" + name}, token, 5000).Err()
}

func (l *Locker) Release(ctx context.Context, name string) error {
	return l.rdb.Del(ctx, "job:"+name).Err()
}

// Negatives.

// A cache fills an entry the same way and drops it on invalidation: no
// name around either says lock.
type Cache struct {
	rdb    *redis.Client
	prefix string
}

func (c *Cache) Set(ctx context.Context, name, value string, ttl time.Duration) error {
	return c.rdb.Eval(ctx, `if redis.call('exists', KEYS[1]) == 0 then
	redis.call('set', KEYS[1], ARGV[1])
	redis.call('pexpire', KEYS[1], ARGV[2])
end
return 1`, []string{c.prefix + name}, value, ttl.Milliseconds()).Err()
}

func (c *Cache) Get(ctx context.Context, name string) (string, error) {
	return c.rdb.Get(ctx, c.prefix+name).Result()
}

func (c *Cache) Delete(ctx context.Context, name string) error {
	return c.rdb.Del(ctx, c.prefix+name).Err()
}

// A Mutex-named type's guarded set that nothing frees nor renews: a
// write-once record left to expire, not a held lock.
type MutexStats struct{ rdb *redis.Client }

func (s *MutexStats) Record(ctx context.Context, id string) error {
	return s.rdb.Eval(ctx, `if redis.call("EXISTS", KEYS[1]) == 0 then redis.call("SET", KEYS[1], ARGV[1], "EX", 3600) end`, []string{"stats:" + id}, time.Now().Unix()).Err()
}

// A rate limiter's window: INCR then PEXPIRE, no SET at all.
type Limiter struct{ rdb *redis.Client }

func (l *Limiter) Allow(ctx context.Context, who string) (bool, error) {
	n, err := l.rdb.Eval(ctx, `local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end return n`, []string{"rate:" + who}, 1000).Int()
	return n <= 10, err
}
