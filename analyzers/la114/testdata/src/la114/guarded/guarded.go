// Package guarded: renewals in Lua that PEXPIRE the lock key without
// comparing its value (cheerego/go-redisson's watchdog: EXISTS then
// PEXPIRE): after the lease ran out and another client took the key, they
// extend that client's lock.
package guarded

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const acquireText = `if (redis.call('exists', KEYS[1]) == 0) then
	redis.call('set', KEYS[1], 1);
	redis.call('pexpire', KEYS[1], ARGV[1]);
	return 0;
end;
return redis.call('pttl', KEYS[1]);`

const renewText = `if (redis.call('exists', KEYS[1]) == 1) then
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return 1;
end;
return 0;`

type Mutex struct {
	rdb *redis.Client
	Key string
}

// The acquire's own PEXPIRE gives the key it has just set its TTL: no
// extend.
func (m *Mutex) tryAcquire(ctx context.Context, lease int64) (int64, error) {
	return m.rdb.Eval(ctx, acquireText, []string{m.Key}, lease).Int64()
}

func (m *Mutex) renewExpiration(ctx context.Context, lease int64) (int64, error) {
	return m.rdb.Eval(ctx, renewText, []string{m.Key}, lease).Int64() // want "^EXPIRE in Lua of lock key `m.Key` extends whoever holds it now: use SET key token IFEQ token PX ttl and stop when it fails$"
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.Key).Err()
}

// Negatives.

// A cache entry kept warm by the same script, filled by the same guarded
// set: no name around them says lock.
type Cache struct{ rdb *redis.Client }

func (c *Cache) Set(ctx context.Context, name string) error {
	return c.rdb.Eval(ctx, acquireText, []string{"page:" + name}, 60000).Err()
}

func (c *Cache) Touch(ctx context.Context, name string) error {
	return c.rdb.Eval(ctx, renewText, []string{"page:" + name}, 60000).Err()
}

func (c *Cache) Delete(ctx context.Context, name string) error {
	return c.rdb.Del(ctx, "page:"+name).Err()
}

// A rate limiter's window, INCR then PEXPIRE, in a package that holds
// locks: its key is no lock's.
type Limiter struct{ rdb *redis.Client }

func (l *Limiter) Allow(ctx context.Context, who string) (bool, error) {
	n, err := l.rdb.Eval(ctx, `local n = redis.call("INCR", KEYS[1]) if n == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end return n`, []string{"rate:" + who}, 1000).Int()
	return n <= 10, err
}
