package reentrant

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"os"

	"github.com/redis/go-redis/v9"
)

// A scripted acquire that re-enters for its owner in Lua: SET NX PX, and
// when the key already holds this owner's id, a PEXPIRE (the owner's
// re-acquire). The id is the owner's identity by design: drawn once per
// elector from crypto/rand it is sound. Negative.
var reacquire = redis.NewScript(`
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return 1
end
return 0`)

type Elector struct {
	rdb *redis.Client
	key string
	id  string
}

func NewElector(rdb *redis.Client, key string) *Elector {
	b := make([]byte, 16)
	crand.Read(b)
	return &Elector{rdb: rdb, key: key, id: hex.EncodeToString(b)}
}

func (e *Elector) Acquire(ctx context.Context) (bool, error) {
	n, err := reacquire.Run(ctx, e.rdb, []string{e.key}, e.id, 30000).Int()
	return n == 1, err
}

// The owner id is the configured one, or else drawn once from crypto/rand
// (with the host name in front): the configured id is its caller's
// choice, the default is sound. Negative.
type Config struct{ InstanceID string }

type ConfigElector struct {
	rdb *redis.Client
	key string
	id  string
}

func NewConfigElector(rdb *redis.Client, key string, cfg Config) *ConfigElector {
	id := cfg.InstanceID
	if id == "" {
		id = instanceID()
	}
	return &ConfigElector{rdb: rdb, key: key, id: id}
}

func instanceID() string {
	host, _ := os.Hostname()
	b := make([]byte, 8)
	_, _ = crand.Read(b)
	return host + "-" + hex.EncodeToString(b)
}

func (e *ConfigElector) Acquire(ctx context.Context) (bool, error) {
	n, err := reacquire.Run(ctx, e.rdb, []string{e.key}, e.id, 30000).Int()
	return n == 1, err
}

// The same script with the host name as the owner id: weak per owner.
type HostElector struct {
	rdb *redis.Client
	key string
	id  string
}

func NewHostElector(rdb *redis.Client, key string) *HostElector {
	h, _ := os.Hostname()
	return &HostElector{rdb: rdb, key: key, id: h}
}

func (e *HostElector) Acquire(ctx context.Context) (bool, error) {
	n, err := reacquire.Run(ctx, e.rdb, []string{e.key}, e.id, 30000).Int() // want `^reentrant lock's owner id is not unique per owner: it comes from field id set once by NewHostElector and os\.Hostname`
	return n == 1, err
}

// Look-alike: the script extends the key only for another value (ARGV[3],
// a caller's lease id), so the acquire does not re-enter: the id drawn
// once per object is reused by every acquire.
var takeover = redis.NewScript(`
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
if redis.call('get', KEYS[1]) == ARGV[3] then
    redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0`)

type Taker struct {
	rdb   *redis.Client
	key   string
	id    string
	lease string
}

func NewTaker(rdb *redis.Client, key, lease string) *Taker {
	b := make([]byte, 16)
	crand.Read(b)
	return &Taker{rdb: rdb, key: key, id: hex.EncodeToString(b), lease: lease}
}

func (t *Taker) Acquire(ctx context.Context) (bool, error) {
	n, err := takeover.Run(ctx, t.rdb, []string{t.key}, t.id, 30000, t.lease).Int() // want `^lock token is not unique per acquisition: it comes from field id set once by NewTaker;`
	return n == 1, err
}

// A hold count in Lua, in a key built from the owner's id: the script
// re-enters for its owner without comparing the lock's value. Negative.
var counted = redis.NewScript(`
local lock_key = '{' .. KEYS[1] .. '}'
local reentrant_key = lock_key .. ':count:' .. ARGV[1]
if tonumber(redis.call('GET', reentrant_key) or '0') > 0 then
    redis.call('INCR', reentrant_key)
    redis.call('PEXPIRE', lock_key, ARGV[2])
    return 1
end
if redis.call('SET', lock_key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    redis.call('SET', reentrant_key, 1)
    return 1
end
return 0`)

type CountedLock struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewCountedLock(rdb *redis.Client, key string) *CountedLock {
	b := make([]byte, 16)
	crand.Read(b)
	return &CountedLock{rdb: rdb, key: key, token: hex.EncodeToString(b)}
}

func (l *CountedLock) Lock(ctx context.Context) (bool, error) {
	n, err := counted.Run(ctx, l.rdb, []string{l.key}, l.token, 30000).Int()
	return n == 1, err
}

// Look-alike: the acquire raises a fencing counter of its own key, which
// is no hold count: the token drawn once per object is reused.
var fenced = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return redis.call('INCR', KEYS[2])
end
return 0`)

type FencedLock struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewFencedLock(rdb *redis.Client, key string) *FencedLock {
	b := make([]byte, 16)
	crand.Read(b)
	return &FencedLock{rdb: rdb, key: key, token: hex.EncodeToString(b)}
}

func (l *FencedLock) Lock(ctx context.Context) (int64, error) {
	return fenced.Run(ctx, l.rdb, []string{l.key, l.key + ":fence"}, l.token, 30000).Int64() // want `^lock token is not unique per acquisition: it comes from field token set once by NewFencedLock;`
}
