// Package field: a token drawn once, when the lock object is built, kept in
// a field and written by every acquire (go-zero's RedisLock).
package field

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	mrand "math/rand"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

func newToken() string {
	b := make([]byte, 20)
	crand.Read(b)
	return hex.EncodeToString(b)
}

var lockScript = redis.NewScript(`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`)

type RedisLock struct {
	rdb *redis.Client
	key string
	id  string
}

func NewRedisLock(rdb *redis.Client, key string) *RedisLock {
	return &RedisLock{rdb: rdb, key: key, id: newToken()}
}

func (rl *RedisLock) Acquire(ctx context.Context) (bool, error) {
	return rl.rdb.SetNX(ctx, rl.key, rl.id, time.Minute).Result() // want `^lock token is not unique per acquisition: it comes from field id set once by NewRedisLock;`
}

func (rl *RedisLock) Release(ctx context.Context) error {
	return rl.rdb.Del(ctx, rl.key).Err()
}

func (rl *RedisLock) AcquireLua(ctx context.Context) (any, error) {
	return lockScript.Run(ctx, rl.rdb, []string{rl.key}, rl.id, 30000).Result() // want `^lock token is not unique per acquisition: it comes from field id set once by NewRedisLock;`
}

// Negatives: a token the acquiring method draws itself, and a lock whose
// token field is set by the acquiring method.

type Mutex struct {
	rdb   *redis.Client
	key   string
	value string
}

func NewMutex(rdb *redis.Client, key string) *Mutex { return &Mutex{rdb: rdb, key: key} }

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	m.value = newToken()
	return m.rdb.SetNX(ctx, m.key, m.value, time.Minute).Result()
}

func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, newToken(), time.Minute).Result()
}

// A struct the caller fills: not this package's constructor.
type Request struct{ Owner string }

func tryLock(ctx context.Context, rdb *redis.Client, req *Request) {
	rdb.SetNX(ctx, "lock:job", req.Owner, time.Minute)
}

// A token kept in a field of a local struct, from a time-seeded source:
// followed through the composite literal and the assignment.
type state struct {
	token string
	n     int
}

var seeded = mrand.New(mrand.NewSource(time.Now().UnixNano()))

func local(ctx context.Context, rdb *redis.Client) {
	s := &state{token: strconv.FormatInt(seeded.Int63(), 36)}
	rdb.SetNX(ctx, "lock:a", s.token, time.Minute) // want `^lock token is not unique per acquisition: it comes from math/rand seeded with time\.Now;`
	var t state
	t.token = strconv.FormatInt(time.Now().UnixNano(), 10)
	rdb.SetNX(ctx, "lock:b", t.token, time.Minute) // want `it comes from time\.Now;`
	u := state{token: newToken()}
	rdb.SetNX(ctx, "lock:c", u.token, time.Minute)
}

// NewLock2's token: drawn once from a time-seeded source and kept in a
// field. The message names both causes whole; the advice shortens.
type RedisLock2 struct {
	rdb *redis.Client
	key string
	id  string
}

func NewLock2(rdb *redis.Client, key string) *RedisLock2 {
	return &RedisLock2{rdb: rdb, key: key, id: strconv.FormatInt(seeded.Int63(), 36)}
}

func (rl *RedisLock2) Acquire(ctx context.Context) (bool, error) {
	return rl.rdb.SetNX(ctx, rl.key, rl.id, time.Minute).Result() // want `^lock token is not unique per acquisition: it comes from field id set once by NewLock2 and math/rand seeded with time\.Now; use a fresh crypto/rand token$`
}
