// Package guarded: locks taken in Lua by EXISTS == 0 then SET and PEXPIRE
// (cheerego/go-redisson's Mutex). The value such an acquire writes is a
// token like any other once the Go side shows the key to be a lock (a
// Mutex that releases it); a cache's fill of the same shape is no lock.
package guarded

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand"
	"os"
	"strconv"

	"github.com/redis/go-redis/v9"
)

const mutexAcquire = `if (redis.call('exists', KEYS[1]) == 0) then
	redis.call('set', KEYS[1], 1);
	redis.call('pexpire', KEYS[1], ARGV[1]);
	return 0;
end;
return redis.call('pttl', KEYS[1]);`

type Mutex struct {
	rdb *redis.Client
	Key string
}

func (m *Mutex) TryLock(ctx context.Context, lease int64) (int64, error) {
	return m.rdb.Eval(ctx, mutexAcquire, []string{m.Key}, lease).Int64() // want `^lock token is not unique per acquisition: the Lua acquire writes the constant "1"; pass a fresh crypto/rand token per acquire as ARGV$`
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.Key).Err()
}

// The token is ARGV[1]: judged where it is drawn.
var setIfFree = redis.NewScript(`if redis.call("EXISTS", KEYS[1]) == 0 then return redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) end return false`)

type Locker struct{ rdb *redis.Client }

func (l *Locker) Lock(ctx context.Context, name string) (string, error) {
	token := strconv.Itoa(mrand.Int())
	return token, setIfFree.Run(ctx, l.rdb, []string{"job:" + name}, token, 5000).Err() // want `^lock token is not unique per acquisition: it comes from math/rand`
}

func (l *Locker) LockStrong(ctx context.Context, name string) (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b)
	return token, setIfFree.Run(ctx, l.rdb, []string{"job:" + name}, token, 5000).Err()
}

func (l *Locker) Unlock(ctx context.Context, name string) error {
	return l.rdb.Eval(ctx, `if redis.call("EXISTS", KEYS[1]) == 1 then return redis.call("DEL", KEYS[1]) end return 0`, []string{"job:" + name}).Err()
}

// Negative: a cache's fill writes a constant mark the same way and its
// invalidation deletes it; no name around either says lock.
type Cache struct{ rdb *redis.Client }

func (c *Cache) Set(ctx context.Context, name string) error {
	return c.rdb.Eval(ctx, mutexAcquire, []string{"seen:" + name}, 60000).Err()
}

func (c *Cache) Get(ctx context.Context, name string) (string, error) {
	return c.rdb.Get(ctx, "seen:"+name).Result()
}

func (c *Cache) Delete(ctx context.Context, name string) error {
	return c.rdb.Del(ctx, "seen:"+name).Err()
}

// A guarded set that the same owner re-enters (EXISTS, then GET == ARGV[1]
// and EXPIRE, else SET and EXPIRE: ryandotsmith/redisync's Mutex): a
// reentrant lock, whose owner id is drawn once per mutex by design. An id
// read from /dev/urandom is strong; a host name is not.
const reenterOrSet = `
local owner = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 1 then
	if redis.call('GET', KEYS[1]) == owner then
		redis.call('EXPIRE', KEYS[1], ARGV[2])
		return 1
	end
	return 0
else
	redis.call('SET', KEYS[1], owner)
	redis.call('EXPIRE', KEYS[1], ARGV[2])
	return 1
end`

type OwnedMutex struct {
	rdb      *redis.Client
	Name, id string
}

func NewOwnedMutex(rdb *redis.Client, name string) *OwnedMutex {
	return &OwnedMutex{rdb: rdb, Name: name, id: urandomID()}
}

func urandomID() string {
	f, _ := os.Open("/dev/urandom")
	b := make([]byte, 16)
	f.Read(b)
	f.Close()
	return fmt.Sprintf("%x-%x", b[0:8], b[8:])
}

func (m *OwnedMutex) TryLock(ctx context.Context) bool {
	n, err := m.rdb.Eval(ctx, reenterOrSet, []string{m.Name}, m.id, 30).Int()
	return err == nil && n == 1
}

func (m *OwnedMutex) Unlock(ctx context.Context) error {
	return m.rdb.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{m.Name}, m.id).Err()
}

type HostMutex struct {
	rdb      *redis.Client
	Name, id string
}

func NewHostMutex(rdb *redis.Client, name string) *HostMutex {
	h, _ := os.Hostname()
	return &HostMutex{rdb: rdb, Name: name, id: h}
}

func (m *HostMutex) TryLock(ctx context.Context) bool {
	n, err := m.rdb.Eval(ctx, reenterOrSet, []string{m.Name}, m.id, 30).Int() // want `^reentrant lock's owner id is not unique per owner: it comes from field id set once by NewHostMutex and os\.Hostname`
	return err == nil && n == 1
}

func (m *HostMutex) Unlock(ctx context.Context) error {
	return m.rdb.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{m.Name}, m.id).Err()
}
