package wrappers

// Wrappers of the package's own: a script constructor, a script run, an
// EVAL, a release helper that returns its outcome, a SETNX whose TTL is a
// parameter, and an interface whose implementations forward to go-redis.
// The callers' Ops carry the callers' arguments (via=the wrapper).

import (
	"context"
	_ "embed"
	"time"

	redisv8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

//go:embed release.lua
var releaseSrc string

type Script = redis.Script

// NewScript is go-zero's wrapper: the caller's text is the script.
func NewScript(src string) *Script { // want `^\Qwrapper NewScript: SCRIPTDEF text=#0 results=value\E$`
	return redis.NewScript(src) // want `^\QSCRIPTDEF client=go-redis/v9 in=NewScript(script)\E$`
}

var release = NewScript(releaseSrc) // want `^\QSCRIPTDEF script=release client=go-redis/v9 via=NewScript\E$`

var notLock = NewScript(`return redis.call("incr", KEYS[1])`) // want `^\QSCRIPTDEF script=none client=go-redis/v9 via=NewScript\E$`

type Store struct{ rdb *redis.Client }

// Run runs the caller's script with the caller's keys and arguments.
func (s *Store) Run(ctx context.Context, sc *Script, keys []string, args ...any) (any, error) { // want `^\Qwrapper Run: EVALSHA keys=#2... argv=#3... script=#1 results=value,error\E$`
	return sc.Run(ctx, s.rdb, keys, args...).Result() // want `^\QEVALSHA incomplete client=go-redis/v9 in=Run(key,script,argv)\E$`
}

// Eval sends the caller's script text.
func (s *Store) Eval(ctx context.Context, script string, keys []string, args ...any) (int64, error) { // want `^\Qwrapper Eval: EVAL keys=#2... argv=#3... text=#1 results=value,error\E$`
	return s.rdb.Eval(ctx, script, keys, args...).Int64() // want `^\QEVAL incomplete client=go-redis/v9 in=Eval(key,script,argv)\E$`
}

// SetNX passes key, value and TTL through.
func (s *Store) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) { // want `^\Qwrapper SetNX: SET key=#1 value=#2 NX ttl=expire ttlarg=#3(duration) results=value,error\E$`
	return s.rdb.SetNX(ctx, key, value, ttl).Result() // want `^\QSET key=key value=value NX ttl=expire ttlexpr=ttl client=go-redis/v9 in=SetNX(key,value,ttl)\E$`
}

// releaseLock runs the release script and returns its outcome.
func releaseLock(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) { // want `^\Qwrapper releaseLock: EVALSHA key=#2 argv=#3 script=release results=value,error\E$`
	n, err := release.Run(ctx, rdb, []string{key}, token).Int() // want `^\QEVALSHA key=key script=release@-23 client=go-redis/v9 in=releaseLock(key,argv)\E$`
	return n == 1, err
}

// dropRelease drops the release's outcome itself: its callers have none
// to drop.
func dropRelease(ctx context.Context, rdb *redis.Client, key, token string) error { // want `^\Qwrapper dropRelease: EVALSHA key=#2 argv=#3 script=release results=error dropped\E$`
	return release.Run(ctx, rdb, []string{key}, token).Err() // want `^\QEVALSHA key=key script=release@-30 client=go-redis/v9 in=dropRelease(key,argv)\E$`
}

// Client is the project's own client interface; both implementations
// forward Del to go-redis.
type Client interface {
	Del(ctx context.Context, keys ...string) error // want `^\Qwrapper Del: DEL keys=#1... results=error dropped\E$`
	Ping(ctx context.Context) error
}

type v9Client struct{ c *redis.Client }

func (v v9Client) Del(ctx context.Context, keys ...string) error { // want `^\Qwrapper Del: DEL keys=#1... results=error dropped\E$`
	return v.c.Del(ctx, keys...).Err() // want `^\QDEL incomplete client=go-redis/v9 in=Del(key)\E$`
}

func (v v9Client) Ping(ctx context.Context) error { return nil }

type v8Client struct{ c *redisv8.Client }

func (v *v8Client) Del(ctx context.Context, keys ...string) error { // want `^\Qwrapper Del: DEL keys=#1... results=error dropped\E$`
	return v.c.Del(ctx, keys...).Err() // want `^\QDEL incomplete client=go-redis/v8 in=Del(key)\E$`
}

func (v *v8Client) Ping(ctx context.Context) error { return nil }

// Busy sends four commands: a routine, not a wrapper.
func Busy(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Get(ctx, key)       // want `^\QGET key=key client=go-redis/v9\E$`
	rdb.Incr(ctx, key)      // want `^\QINCR key=key client=go-redis/v9\E$`
	rdb.Del(ctx, key)       // want `^\QDEL key=key client=go-redis/v9\E$`
	rdb.Expire(ctx, key, 0) // want `^\QEXPIRE key=key ttlexpr=0 client=go-redis/v9\E$`
}

// Fixed sends what it fixes: nothing comes from its caller.
func Fixed(ctx context.Context, rdb *redis.Client) {
	rdb.Get(ctx, "config") // want `^\QGET key="config" client=go-redis/v9\E$`
}

func callers(ctx context.Context, s *Store, rdb *redis.Client, c Client, token string) {
	s.Run(ctx, release, []string{"lock:a"}, token)                                                                                         // want `^\QEVALSHA key="lock:a" script=release@-70 client=go-redis/v9 via=Run\E$`
	s.Run(ctx, release, []string{"lock:a"}, []string{token, "30000"})                                                                      // want `^\QEVALSHA key="lock:a" script=release@-71 client=go-redis/v9 via=Run\E$`
	s.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{"lock:b"}, token) // want `^\QEVAL key="lock:b" script=release(inline) client=go-redis/v9 via=Eval\E$`
	s.SetNX(ctx, "lock:c", token, 0)                                                                                                       // want `^\QSET key="lock:c" value=token NX ttl=none client=go-redis/v9 via=SetNX\E$`
	s.SetNX(ctx, "lock:c", token, time.Second)                                                                                             // want `^\QSET key="lock:c" value=token NX ttl=expire ttlexpr=time.Second client=go-redis/v9 via=SetNX\E$`
	_, _ = releaseLock(ctx, rdb, "lock:d", token)                                                                                          // want `^\QEVALSHA key="lock:d" script=release@-75 client=go-redis/v9 via=releaseLock\E$`
	dropRelease(ctx, rdb, "lock:e", token)                                                                                                 // want `^\QEVALSHA key="lock:e" script=release@-76 client=go-redis/v9 via=dropRelease\E$`
	c.Del(ctx, "lock:f")                                                                                                                   // want `^\QDEL key="lock:f" client=go-redis/v8 via=Del\E$`
	Busy(ctx, rdb, "lock:g")
	Fixed(ctx, rdb)
	notLock.Run(ctx, rdb, []string{"n"}) // want `^\QEVALSHA key="n" script=none@-78 client=go-redis/v9\E$`
}
