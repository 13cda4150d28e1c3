// Package unit holds lock TTLs the server reads in the wrong unit: a
// time.Duration sent as a raw argument goes out as its nanoseconds on
// go-redis v9 (shape seen in the wild: a Lua acquire's EX ARGV fed a
// Duration through Eval, and a driver's Do SET NX PX fed one).
package unit

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

// lockScript takes the lock if it is free (GET == false), or re-takes it
// for its owner; ARGV[2] is the TTL in seconds.
const lockScript = `
local v = redis.call('get', KEYS[1])
if v == false then
	return redis.call('set', KEYS[1], ARGV[1], 'EX', ARGV[2])
elseif v == ARGV[1] then
	redis.call('expire', KEYS[1], ARGV[2])
	return 'OK'
end
return ''`

// nxScript acquires with SET NX PX tonumber(ARGV[2]).
const nxScript = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2]))`

func rawDo(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) {
	rdb.Do(ctx, "SET", "lock:a", token, "NX", "PX", ttl)                  // want `^SET NX PX: a time.Duration is sent as nanoseconds: PX 10000000000 for 10s, a lock of ~116 days; send ttl.Milliseconds\(\)$`
	rdb.Do(ctx, "SET", "lock:b", token, "NX", "EX", 8*time.Second)        // want `^SET NX EX: a time.Duration is sent as nanoseconds: EX 8000000000 for 8s, a lock of ~254 years; send int64\(\(8 \* time.Second\) / time.Second\)$`
	rdb.Do(ctx, "SET", "lock:c", token, "NX", "PX", ttl*time.Millisecond) // want `^SET NX PX: a time.Duration is sent as nanoseconds: .*; send \(ttl \* time.Millisecond\).Milliseconds\(\)$`

	// Negatives: the unit's integer.
	rdb.Do(ctx, "SET", "lock:ok", token, "NX", "PX", ttl.Milliseconds())
	rdb.Do(ctx, "SET", "lock:ok", token, "NX", "EX", int64(ttl/time.Second))
	secs := time.Duration(ms(ttl))
	rdb.Do(ctx, "SET", "lock:ok", token, "NX", "EX", secs) // a count of seconds in a Duration: EX secs, as meant
	// Not a lock: no evidence for this key, whatever its unit.
	rdb.Do(ctx, "SET", "session:"+token, "1", "EX", ttl)
}

func ms(d time.Duration) int64 { return d.Milliseconds() / 1000 }

func scripts(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) {
	rdb.Eval(ctx, lockScript, []string{key}, token, ttl)                    // want `^the script's EX ARGV\[2\]: a time.Duration is sent as nanoseconds: EX 10000000000 for 10s, a lock of ~317 years; send int64\(ttl / time.Second\)$`
	rdb.Eval(ctx, nxScript, []string{"lock:" + key}, token, ttl)            // want `^the script's PX ARGV\[2\]: a time.Duration is sent as nanoseconds: PX 10000000000 for 10s, a lock of ~116 days; send ttl.Milliseconds\(\)$`
	rdb.Eval(ctx, lockScript, []string{key}, token, int64(ttl/time.Second)) // the seconds: right
	rdb.Eval(ctx, nxScript, []string{"lock:" + key}, token, ttl.Milliseconds())
}

// lockTTL is a real duration: multiplying it by a unit again re-counts it.
const lockTTL = 8 * time.Second

type locker struct {
	rdb    *redis.Client
	expiry time.Duration // set to a real duration by newLocker, the only write
	secs   time.Duration // a count of seconds, set only from a conversion
}

func newLocker(rdb *redis.Client, n int) *locker {
	return &locker{rdb: rdb, expiry: 8 * time.Second, secs: time.Duration(n)}
}

func typed(ctx context.Context, rdb *redis.Client, l *locker, token string, ttl time.Duration, ms int64, n int) {
	rdb.SetNX(ctx, "lock:t", token, lockTTL*time.Millisecond) // want `^TTL lockTTL \* time.Millisecond: lockTTL is already a time.Duration, so 8s becomes ~93 days, a lock that never expires in practice; pass lockTTL$`
	hold := 30 * time.Second
	rdb.SetArgs(ctx, "lock:u", token, redis.SetArgs{Mode: "NX", TTL: time.Second * hold}) // want `^TTL time.Second \* hold: hold is already a time.Duration, so a TTL of 10s overflows time.Duration \(it wraps\); pass hold$`
	l.rdb.SetNX(ctx, "lock:v", token, l.expiry*time.Millisecond)                          // want `^TTL l.expiry \* time.Millisecond: l.expiry is already a time.Duration`

	// Negatives: counts made durations, and the typed API's own conversion.
	rdb.SetNX(ctx, "lock:ok", token, time.Duration(n)*time.Millisecond)
	rdb.SetNX(ctx, "lock:ok", token, time.Duration(ms)*time.Millisecond)
	millis := time.Duration(ms)
	rdb.SetNX(ctx, "lock:ok", token, millis*time.Millisecond)
	l.rdb.SetNX(ctx, "lock:ok", token, l.secs*time.Second)
	rdb.SetNX(ctx, "lock:ok", token, ttl)
	rdb.SetNX(ctx, "lock:ok", token, 2*ttl)
	// A parameter may hold a count by its callers' convention (Lock(k, 10)
	// then ttl*time.Second is common): not known, not reported.
	rdb.SetNX(ctx, "lock:ok", token, ttl*time.Millisecond)
}

// redigo formats a time.Duration as "10s", which the server refuses with
// an error ("value is not an integer"): a loud failure, not a lock that
// lasts for years.
func redigoDo(c redigo.Conn, token string, ttl time.Duration) {
	c.Do("SET", "lock:r", token, "NX", "PX", ttl)
}
