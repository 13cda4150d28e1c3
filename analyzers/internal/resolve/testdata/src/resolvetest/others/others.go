// Package others exercises the resolve layer on go-redis v8/v7/v6, rueidis,
// the compat adapters and the lock libraries.
package others

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	redis6 "github.com/go-redis/redis"
	redis7 "github.com/go-redis/redis/v7"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
	"github.com/redis/rueidis/rueidislock"
	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeycompat"
)

const key = "lock:job"

func v8(ctx context.Context, c *redis8.Client, token string, ttl time.Duration) {
	c.SetNX(ctx, key, token, 0)                            // want `^\QSETNX key=key value=token client=go-redis/v8\E$`
	c.SetNX(ctx, key, token, ttl)                          // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl client=go-redis/v8\E$`
	c.SetNX(ctx, key, token, redis8.KeepTTL)               // want `^\QSET key=key value=token NX ttl=keepttl client=go-redis/v8\E$`
	c.Do(ctx, "delifeq", key, token)                       // want `^\QDELIFEQ key=key match=token client=go-redis/v8\E$`
	c.SetArgs(ctx, key, token, redis8.SetArgs{Mode: "NX"}) // want `^\QSET key=key value=token NX ttl=none client=go-redis/v8\E$`
	c.TxPipelined(ctx, func(p redis8.Pipeliner) error {
		p.SetNX(ctx, key, token, ttl) // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl tx=multi@-1 client=go-redis/v8\E$`
		p.Incr(ctx, "fence")          // want `^\QINCR key="fence" tx=multi@-2 client=go-redis/v8\E$`
		return nil
	})
	redis8.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`).Run(ctx, c, []string{key}, token) // want `^\QEVALSHA key=key script=release@0 client=go-redis/v8\E$` `^\QSCRIPTDEF script=release client=go-redis/v8\E$`
}

func v7(c *redis7.Client, token string, ttl time.Duration) {
	c.SetNX(key, token, 0)      // want `^\QSETNX key=key value=token client=go-redis/v7\E$`
	c.SetNX(key, token, ttl)    // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl client=go-redis/v7\E$`
	c.Set(key, token, -1)       // want `^\QSET key=key value=token ttl=none client=go-redis/v7\E$`
	c.Do("delifeq", key, token) // want `^\QDELIFEQ key=key match=token client=go-redis/v7\E$`
	c.TxPipelined(func(p redis7.Pipeliner) error {
		p.SetNX(key, token, ttl) // want `^\QSET key=key value=token NX ttl=expire ttlexpr=ttl tx=multi@-1 client=go-redis/v7\E$`
		return nil
	})
	redis7.NewScript(`return 1`).Run(c, []string{key}) // want `^\QEVALSHA key=key script=none@0 client=go-redis/v7\E$` `^\QSCRIPTDEF script=none client=go-redis/v7\E$`
}

func v6(c *redis6.Client, token string) {
	c.SetNX(key, token, 0)                                                                                                       // want `^\QSETNX key=key value=token client=go-redis\E$`
	c.SetNX(key, token, time.Second)                                                                                             // want `^\QSET key=key value=token NX ttl=expire ttlexpr=time.Second client=go-redis\E$`
	c.Do("SET", key, token, "NX")                                                                                                // want `^\QSET key=key value=token NX ttl=none client=go-redis\E$`
	c.Eval(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{key}, token) // want `^\QEVAL key=key script=release(inline) client=go-redis\E$`
}

func rueidisClient(ctx context.Context, c rueidis.Client, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Build())                                  // want `^\QSET key=key value=token NX ttl=none client=rueidis\E$`
	c.Do(ctx, c.B().Delifeq().Key(key).Value(token).Build())                                   // want `^\QDELIFEQ key=key match=token client=rueidis\E$`
	c.DoMulti(ctx, c.B().Multi().Build(), c.B().Incr().Key("f").Build(), c.B().Exec().Build()) // want `^\QINCR key="f" tx=multi@0 client=rueidis\E$`
	rueidis.NewLuaScript(`return 1`).Exec(ctx, c, nil, nil)                                    // want `^\QEVALSHA script=none@0 client=rueidis\E$` `^\QSCRIPTDEF script=none client=rueidis\E$`
}

func compat(ctx context.Context, vc valkey.Client, rc rueidis.Client, token string) {
	v := valkeycompat.NewAdapter(vc)
	v.SetNX(ctx, key, token, 0)                                                 // want `^\QSETNX key=key value=token client=valkeycompat\E$`
	v.SetNX(ctx, key, token, time.Second)                                       // want `^\QSET key=key value=token NX ttl=expire ttlexpr=time.Second client=valkeycompat\E$`
	v.SetArgs(ctx, key, token, valkeycompat.SetArgs{Mode: "NX", KeepTTL: true}) // want `^\QSET key=key value=token NX ttl=keepttl client=valkeycompat\E$`
	r := rueidiscompat.NewAdapter(rc)
	r.SetNX(ctx, key, token, 0)                                    // want `^\QSETNX key=key value=token client=rueidiscompat\E$`
	r.PExpire(ctx, key, time.Second)                               // want `^\QPEXPIRE key=key ttlexpr=time.Second client=rueidiscompat\E$`
	rueidiscompat.NewScript(`return 1`).Run(ctx, r, []string{key}) // want `^\QEVALSHA key=key script=none@0 client=rueidiscompat\E$` `^\QSCRIPTDEF script=none client=rueidiscompat\E$`
}

func libraries(ctx context.Context, rdb *redis.Client) {
	rs := redsync.New(goredis.NewPool(rdb))
	m := rs.NewMutex("job", redsync.WithExpiry(10*time.Second)) // want `^\QLIB redsync.NewMutex step=locker key="job" client=redsync\E$`
	m.Lock()                                                    // want `^\QLIB redsync.Lock step=acquire client=redsync\E$`
	m.LockContext(ctx)                                          // want `^\QLIB redsync.LockContext step=acquire client=redsync\E$`
	m.TryLock()                                                 // want `^\QLIB redsync.TryLock step=acquire client=redsync\E$`
	m.Extend()                                                  // want `^\QLIB redsync.Extend step=extend client=redsync\E$`
	m.ExtendContext(ctx)                                        // want `^\QLIB redsync.ExtendContext step=extend client=redsync\E$`
	m.Unlock()                                                  // want `^\QLIB redsync.Unlock step=release client=redsync\E$`
	m.UnlockContext(ctx)                                        // want `^\QLIB redsync.UnlockContext step=release client=redsync\E$`
	_ = m.Value()

	l, _ := redislock.Obtain(ctx, rdb, "job", time.Minute, nil) // want `^\QLIB redislock.Obtain step=acquire key="job" ttlexpr=time.Minute client=redislock\E$`
	l.Refresh(ctx, time.Minute, nil)                            // want `^\QLIB redislock.Refresh step=extend ttlexpr=time.Minute client=redislock\E$`
	l.TTL(ctx)                                                  // want `^\QLIB redislock.TTL step=ttl client=redislock\E$`
	l.Release(ctx)                                              // want `^\QLIB redislock.Release step=release client=redislock\E$`
	_ = l.Token()
	c := redislock.New(rdb)
	c.Obtain(ctx, "job2", time.Minute, &redislock.Options{}) // want `^\QLIB redislock.Obtain step=acquire key="job2" ttlexpr=time.Minute client=redislock\E$`

	lk, _ := rueidislock.NewLocker(rueidislock.LockerOption{}) // want `^\QLIB rueidislock.NewLocker step=locker client=rueidislock\E$`
	lk.WithContext(ctx, "job")                                 // want `^\QLIB rueidislock.WithContext step=acquire key="job" client=rueidislock\E$`
}
